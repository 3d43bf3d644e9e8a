"""The next move a tap away: under "your move" and ``/game status``, a button for the ruleset's
quick moves (end the phase or the turn, hold), a select of the figures that may still act, and the
commands to type for the rest.

Each ruleset's cog names its quick moves (``quick_moves``), offered only when the engine would
carry them out now (:class:`~bot.app.replies.MovesNow`), and the hint names only the commands the
phase allows (``Engine.actions_now``); a button's custom_id names the command
(``next:ssg:next``), and a click runs that command's own callback with the click's interaction, so
it goes through exactly the path the typed command does: the same checks, the same refusals.

The cog also names the commands a figure acts with (``figure_moves``, each taking the figure as its
first option). Picking a figure in the select (``ready:ssg``) answers privately with those commands
written out for it, ready to type: a slash command's options cannot be filled in by a click.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.adapter.once import AnsweredOnce
from bot.app.replies import MovesNow, ReadyFigure
from bot.render.shown import shown

MAX_QUICK = 4
#: Discord's limit on a select's options.
MAX_READY = 25
PICK = "Who acts? Pick one to see what to type"


def _group(client: Any, slug: str) -> app_commands.Group | None:
    tree = getattr(client, "tree", None)
    found = tree.get_command(slug) if tree is not None else None
    return found if isinstance(found, app_commands.Group) else None


def _named(client: Any, slug: str, names: str) -> list[app_commands.Command[Any, ..., Any]]:
    """The ruleset's commands its cog lists under ``names`` (``quick_moves``, ``figure_moves``)."""
    group = _group(client, slug)
    by_name = {c.name: c for c in group.commands if isinstance(c, app_commands.Command)} if group else {}
    return [by_name[n] for n in getattr(_cog(client, slug), names, ()) if n in by_name]


def _cog(client: Any, slug: str) -> object:
    """The cog whose group is ``/slug`` (None when there is none)."""
    group = _group(client, slug)
    commands = [c for c in group.commands if isinstance(c, app_commands.Command)] if group else []
    return commands[0].binding if commands else None


def quick_moves(client: Any, slug: str, now: MovesNow | None) -> list[app_commands.Command[Any, ..., Any]]:
    """The ruleset's quick moves as its cog names them, in that order: those the engine would carry
    out now, typed with no options (none when nobody is to move)."""
    if now is None:
        return []
    return [c for c in _named(client, slug, "quick_moves") if now.accepts(c.name)][:MAX_QUICK]


def figure_commands(client: Any, slug: str, name: str) -> str:
    """The commands ``name`` acts with, written out for it: "`/ssg shoot shooter:Rossi target:… …`"
    (an option it needs, then "…" where more may be given)."""
    lines = []
    for command in _named(client, slug, "figure_moves"):
        first, *rest = command.parameters
        value = f'"{name}"' if " " in name else name
        parts = [f"/{command.qualified_name}", f"{first.display_name}:{value}"]
        parts += [f"{p.display_name}:…" for p in rest if p.required]
        if any(not p.required for p in rest):
            parts.append("…")
        lines.append(f"`{' '.join(parts)}`")
    return "\n".join(lines)


def to_type(client: Any, slug: str, now: MovesNow | None) -> str:
    """The other commands the phase allows, as a line to read: "Or type /ssg move (/help topic:ssg)":
    the ruleset's that need options, and /map's for placing figures while the sides deploy; when
    none does, every one the phase allows (an SSG melee's /ssg melee)."""
    if now is None:
        return ""
    quick = set(getattr(_cog(client, slug), "quick_moves", ()))
    allowed = [
        command
        for group in (_group(client, slug), _group(client, "map"))
        for command in (group.commands if group is not None else ())
        if isinstance(command, app_commands.Command) and command.name in now.allowed and command.name not in quick
    ]
    # Those that need options (a button cannot give them) and /map's; all of them when that is none.
    needing = [c for c in allowed if c.parent is None or c.parent.name != slug or any(p.required for p in c.parameters)]
    named = list(dict.fromkeys(f"/{c.qualified_name}" for c in needing or allowed))
    return f"Or type {', '.join(named)} (/help topic:{slug})." if named else ""


class NextMoveButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"next:(?P<slug>[a-z]{1,20}):(?P<name>[a-z_]{1,32})",
):
    """A quick move under "your move": pressing it runs the command as if typed without options."""

    def __init__(self, slug: str, name: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"/{slug} {name}", style=discord.ButtonStyle.primary, custom_id=f"next:{slug}:{name}"
            )
        )
        self.slug = slug
        self.name = name

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> NextMoveButton:
        return cls(match["slug"], match["name"])

    async def callback(self, interaction: discord.Interaction) -> None:
        group = _group(interaction.client, self.slug)
        command = group.get_command(self.name) if group is not None else None
        if not isinstance(command, app_commands.Command):
            await interaction.response.send_message("That move is no longer offered here.", ephemeral=True)
            return
        tree: app_commands.CommandTree[Any] = interaction.client.tree  # type: ignore[attr-defined]
        try:
            await tree.interaction_check(interaction)  # as before a typed command: deferral in time, paced collection
            await command.callback(command.binding, interaction)  # type: ignore[arg-type]
        except Exception as exc:  # the tree's one error handler, as a typed command's error reaches it
            await tree.on_error(interaction, app_commands.CommandInvokeError(command, exc))


class ReadySelect(
    AnsweredOnce, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"ready:(?P<slug>[a-z]{1,20})"
):
    """The figures that may still act: picking one answers privately with the commands to type for it."""

    def __init__(self, slug: str, ready: Sequence[ReadyFigure] = ()) -> None:
        options = [
            discord.SelectOption(label=f.name[:100], value=f.name[:100], description=f.status[:100] or None)
            for f in ready[:MAX_READY]
        ]
        super().__init__(discord.ui.Select(custom_id=f"ready:{slug}", placeholder=PICK, options=options))
        self.slug = slug

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReadySelect:
        return cls(match["slug"])

    async def callback(self, interaction: discord.Interaction) -> None:
        picked = self.item.values[0] if self.item.values else ""
        text = figure_commands(interaction.client, self.slug, picked)
        if not picked or not text:
            await interaction.response.send_message("Nothing to type for that pick here.", ephemeral=True)
            return
        await interaction.response.send_message(
            f"**{shown(picked)}**: {text}\nSee `/help topic:{self.slug}` for every option.", ephemeral=True
        )


def next_moves_view(
    client: Any, slug: str, now: MovesNow | None, ready: Sequence[ReadyFigure] = ()
) -> discord.ui.View | None:
    moves = quick_moves(client, slug, now)
    offer = bool(ready) and bool(_named(client, slug, "figure_moves"))
    if not moves and not offer:
        return None
    view = discord.ui.View(timeout=None)
    for command in moves:
        view.add_item(NextMoveButton(slug, command.name))
    if offer:
        view.add_item(ReadySelect(slug, ready))
    return view
