"""Every command of the application's table (:mod:`bot.app.commands`) as a slash command: a cog per
group (``/campaign``, ``/ssg``), its subgroups inside it (``/campaign rules``), and one cog for the
commands of their own (``/decide``, ``/roll``, ``/odds``, ``/help``). Nothing here is written per
command: each is built from its declaration by :func:`bot.adapter.slash.command_slash`."""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from typing import Any

from discord import app_commands
from discord.ext import commands

from bot.adapter.delivery import DecisionButton, LogPageButton
from bot.adapter.help import HelpButton
from bot.adapter.next_moves import NextMoveButton, ReadySelect
from bot.adapter.slash import command_slash
from bot.app.commands.declared import Command
from bot.app.commands.table import SUBGROUPS, command_table, groups

#: The persistent buttons and selects the answers carry; a click finds its handler by custom_id.
BUTTONS = (DecisionButton, LogPageButton, HelpButton, NextMoveButton, ReadySelect)


class CommandsCog(commands.Cog):
    """The base of every built cog: what discord.py needs of a cog, nothing more (the commands reach
    the application through their interaction's client)."""


def group_cog(name: str, description: str, members: Sequence[Command]) -> commands.GroupCog:
    """``/name`` as a cog: its commands, and a subgroup (described by :data:`SUBGROUPS`) for the
    commands one level deeper."""
    attributes: dict[str, Any] = {}
    subgroups: dict[str, app_commands.Group] = {}
    for command in members:
        built = command_slash(command)
        if len(command.path) == 3:
            sub = command.path[1]
            if sub not in subgroups:  # where its first command is declared
                subgroups[sub] = attributes[f"group_{sub}"] = app_commands.Group(
                    name=sub, description=SUBGROUPS[(name, sub)]
                )
            subgroups[sub].add_command(built)
        else:
            attributes[f"command_{command.path[-1]}"] = built
    attributes["__module__"] = __name__  # unloading the extension takes its cogs away by module
    keywords = {"group_name": name, "group_description": description}
    cog_class = types.new_class(
        f"{name.capitalize()}Cog", (CommandsCog, commands.GroupCog), keywords, lambda ns: ns.update(attributes)
    )
    return cog_class()


def single_cog(members: Sequence[Command]) -> commands.Cog:
    """The commands of their own (``/roll``), as one cog."""
    attributes: dict[str, Any] = {f"command_{command.name}": command_slash(command) for command in members}
    attributes["__module__"] = __name__
    return types.new_class("PlayCog", (CommandsCog,), {}, lambda ns: ns.update(attributes))()


def cogs(table: Mapping[str, Command]) -> list[commands.Cog]:
    """The cogs of ``table``: a group's in the table's order, then the commands of their own."""
    by_group: dict[str, list[Command]] = {}
    for command in table.values():
        by_group.setdefault(command.group, []).append(command)
    sentences = groups()
    built: list[commands.Cog] = [
        group_cog(name, sentences[name], members) for name, members in by_group.items() if len(members[0].path) > 1
    ]
    built.append(single_cog([members[0] for members in by_group.values() if len(members[0].path) == 1]))
    return built


async def setup(bot: commands.Bot) -> None:
    for item in BUTTONS:
        bot.add_dynamic_items(item)
    for cog in cogs(command_table()):
        await bot.add_cog(cog)


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(*BUTTONS)
