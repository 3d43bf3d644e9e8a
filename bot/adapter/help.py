"""Help built from the bot's own command tree: the same pages on Discord (``/help``) and at the
terminal (``/help``), so neither can drift from the commands the bot really has.

A topic is empty (the contents: the rulesets, the shared commands, how to begin), a ruleset or a
group of commands (its commands in the order a turn uses them, which is the order the cog declares
them), or one command (its options, each with its type and choices, and an example line). A long
topic is cut into pages; Discord shows them with buttons, the terminal all at once.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType

from bot.adapter.commandline import HIDDEN_GROUPS, walk
from bot.adapter.embeds import to_embeds
from bot.adapter.errors import player_message
from bot.adapter.messages import NOBODY
from bot.adapter.once import AnsweredOnce
from bot.app.replies import Card, HelpReply
from rules import RULESETS, get_engine
from rules.core import RuleError

log = logging.getLogger("skirmish_gm.help")

PAGE_CHARS = 1800
#: The commands every ruleset shares, in the order a group meets them.
SHARED_ORDER = ("campaign", "roster", "map", "game", "decide", "roll", "odds", "help")
GETTING_STARTED = (
    "**Getting started**\n"
    "1. The game master: `/campaign new name: ruleset:` in the channel you play in.\n"
    "2. Each player: `/campaign join side:`; the game master approves.\n"
    "3. Each player: `/roster add name: kind:` for each figure (or `/roster import`).\n"
    "4. The game master: `/game start`; the bot pings whoever moves first.\n"
    "Then `/help topic:<ruleset>` lists a turn's commands, `/help topic:<command>` one command."
)
#: Sample values for an example line, by option name; else by type.
SAMPLES = {
    "figure": "Rossi",
    "shooter": "Rossi",
    "fighter": "Rossi",
    "attacker": "Rossi",
    "target": "Bo",
    "opponent": "Bo",
    "defender": "Bo",
    "name": "Rossi",
    "unit": "1st Company",
    "side": "red",
    "dice": "2d6+1",
    "at": '"12,6"',
    "to": '"12,6"',
    "choice": "approve",
}
BY_TYPE = {
    AppCommandOptionType.integer: "2",
    AppCommandOptionType.number: "4.5",
    AppCommandOptionType.boolean: "true",
    AppCommandOptionType.attachment: "roster.yaml",
    AppCommandOptionType.user: "@Rita",
}

Command = app_commands.Command[Any, ..., Any]
BACK, NEXT, CONTENTS = "◀ Back", "Next ▶", "Contents"


def help_reply(tree: app_commands.CommandTree, topic: str | None = None, page: int = 1) -> HelpReply:
    """Page ``page`` of the help on ``topic``, private to whoever asked."""
    key, title, text = _topic(tree, (topic or "").strip().casefold())
    pages = _paged(text)
    page = min(max(page, 1), len(pages))
    card = Card(title=title, description=pages[page - 1])
    if len(pages) > 1:
        card.footer = f"Page {page} of {len(pages)}"
    return HelpReply(cards=[card], ephemeral=True, topic=key, page=page, pages=len(pages))


def help_text(tree: app_commands.CommandTree, topic: str | None = None) -> str:
    """The whole help on ``topic`` as plain text, every page (the terminal's ``/help``)."""
    _, title, text = _topic(tree, (topic or "").strip().casefold())
    return f"{title}\n{text}".replace("**", "").replace("`", "")


def topics(tree: app_commands.CommandTree) -> list[str]:
    """Every topic help knows: the rulesets and groups, then each command."""
    return [*_groups(tree), *walk(tree)]


def command_help(command: Command) -> str:
    """One command: what it does, each option, and an example line."""
    lines = [f"`/{command.qualified_name}` — {command.description}", ""]
    for p in command.parameters:
        choices = f" (one of {', '.join(str(c.value) for c in p.choices)})" if p.choices else ""
        need = "" if p.required else ", optional"
        lines.append(f"• `{p.display_name}` ({p.type.name}{need}): {p.description}{choices}")
    if not command.parameters:
        lines.append("No options.")
    lines += ["", f"Example: `{example(command)}`"]
    return "\n".join(lines)


def example(command: Command) -> str:
    """A line that reads like a real use of ``command``: its required options with sample values
    (a command's ``extras["samples"]`` first)."""
    parts = [f"/{command.qualified_name}"]
    samples = {**SAMPLES, **command.extras.get("samples", {})}  # a cog's own (YASG's squares)
    for p in command.parameters:
        if not p.required:
            continue
        value = str(p.choices[0].value) if p.choices else samples.get(p.display_name)
        value = value or BY_TYPE.get(p.type, p.display_name.upper())
        parts.append(f"{p.display_name}:{value}")
    return " ".join(parts)


def _groups(tree: app_commands.CommandTree) -> dict[str, app_commands.Group | Command]:
    found: dict[str, app_commands.Group | Command] = {
        item.name: item
        for item in tree.get_commands()
        if item.name not in HIDDEN_GROUPS and isinstance(item, app_commands.Group | app_commands.Command)
    }
    order = [*RULESETS, *SHARED_ORDER]
    return dict(sorted(found.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else len(order), kv[0])))


def _topic(tree: app_commands.CommandTree, wanted: str) -> tuple[str, str, str]:
    """The topic's key, its title and its whole text (``topic:ssg`` typed at the terminal is ``ssg``)."""
    wanted = " ".join(wanted.removeprefix("topic:").split()).lstrip("/")
    groups = _groups(tree)
    if not wanted:
        return "", "Skirmish GM: help", _contents(groups)
    if wanted in groups and isinstance(groups[wanted], app_commands.Group):
        group = groups[wanted]
        assert isinstance(group, app_commands.Group)
        text = _group_text(group, with_description=wanted in RULESETS)
        if wanted in RULESETS:
            text += "".join(f"\n\n**{heading}**\n{body}" for heading, body in get_engine(wanted).about())
        return wanted, _group_title(wanted, group), text
    commands = walk(tree)
    if wanted in commands:
        return wanted, f"/{wanted}", command_help(commands[wanted])
    raise RuleError(f"There is no help on {wanted[:40]!r}: /help lists the rulesets and commands.")


def _group_title(name: str, group: app_commands.Group) -> str:
    ruleset = RULESETS.get(name)
    return f"/{name}: {ruleset[1]}" if ruleset else f"/{name}: {group.description}"


def _contents(groups: dict[str, app_commands.Group | Command]) -> str:
    rulesets = [f"• `/{n}` — {RULESETS[n][1]}" for n in groups if n in RULESETS]
    shared = [f"• `/{n}` — {item.description}" for n, item in groups.items() if n not in RULESETS]
    return "\n".join(
        [
            "**Rulesets** (a channel plays one; `/help topic:<ruleset>` for its turn)",
            *rulesets,
            "",
            "**Every ruleset** (`/help topic:<command>` for one command's options)",
            *shared,
            "",
            GETTING_STARTED,
        ]
    )


def _group_text(group: app_commands.Group, *, with_description: bool) -> str:
    lines = [group.description, ""] if with_description else []
    for item in group.commands:
        if isinstance(item, app_commands.Group):
            lines += [f"• `/{sub.qualified_name}` — {sub.description}" for sub in item.commands]
        else:
            lines.append(f"• `/{item.qualified_name}` — {item.description}")
    lines += ["", "`/help topic:<command>` shows a command's options, e.g. " + f"`/help topic:{_first(group)}`."]
    return "\n".join(lines)


def _first(group: app_commands.Group) -> str:
    for item in group.walk_commands():
        if isinstance(item, app_commands.Command):
            return item.qualified_name
    return group.name


def _paged(text: str) -> list[str]:
    """``text`` in pages of at most :data:`PAGE_CHARS`, cut between lines."""
    pages: list[str] = []
    current: list[str] = []
    size = 0
    for line in text.split("\n"):
        if current and size + len(line) + 1 > PAGE_CHARS:
            pages.append("\n".join(current).strip("\n"))
            current, size = [], 0
        current.append(line[:PAGE_CHARS])
        size += len(line) + 1
    pages.append("\n".join(current).strip("\n"))
    return [p for p in pages if p] or [""]


# --- the buttons under a page on Discord ---------------------------------------------------------


class HelpButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"help:(?P<page>[0-9]{1,3}):(?P<topic>[a-z0-9 _-]{0,60})",
):
    """Back, Next or Contents under a help page: the click shows that page in place of this one,
    built again from the command tree (nothing about it lives in the bot's memory)."""

    def __init__(self, topic: str, page: int, label: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, disabled=disabled, custom_id=f"help:{page}:{topic}"
            )
        )
        self.topic = topic
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HelpButton:
        label = (item.label if isinstance(item, discord.ui.Button) else None) or "…"
        return cls(match["topic"], int(match["page"]), label)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            reply = help_reply(interaction.client.tree, self.topic, self.page)  # type: ignore[attr-defined]
        except Exception as exc:
            await interaction.response.send_message(player_message(exc, context="help"), ephemeral=True)
            return
        interaction.extras["reply"] = reply
        await interaction.response.edit_message(
            content=None, embeds=to_embeds(reply.cards), view=help_view(reply), allowed_mentions=NOBODY
        )


def help_view(reply: HelpReply) -> discord.ui.View | None:
    """Back and Next for a topic of several pages, and Contents away from the contents."""
    buttons = []
    if reply.pages > 1:
        buttons.append(HelpButton(reply.topic, reply.page - 1, BACK, disabled=reply.page <= 1))
        buttons.append(HelpButton(reply.topic, reply.page + 1, NEXT, disabled=reply.page >= reply.pages))
    if reply.topic:
        buttons.append(HelpButton("", 1, CONTENTS))
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    return view
