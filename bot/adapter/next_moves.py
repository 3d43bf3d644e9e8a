"""The next move a tap away: under "your move" and ``/game status``, a button for the ruleset's
quick moves (end the phase or the turn, hold), a select of the figures that may still act, and the
commands to type for the rest.

A ruleset's quick move is its action spec with the PASS role (:mod:`rules.specs`), offered only
when the engine would carry it out now (:class:`~bot.app.replies.MovesNow`), and the hint names
only the commands the phase allows (``Engine.actions_now``); a button's custom_id names the command
(``next:ssg:next``), and a click runs that command's own callback with the click's interaction, so
it goes through exactly the path the typed command does: the same checks, the same refusals.

The commands a figure acts with are the specs that name their ``acting`` option. Picking a figure
in the select (``ready:ssg``) answers privately with those commands written out for it, that
option filled, ready to type: a slash command's options cannot be filled in by a click.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.adapter.once import AnsweredOnce
from bot.app.commands.moves import map_actions
from bot.app.replies import MovesNow, ReadyFigure
from bot.render.shown import shown
from rules import RULESETS, get_engine
from rules.specs import ActionSpec, Role

MAX_QUICK = 4
#: Discord's limit on a select's options.
MAX_READY = 25
PICK = "Who acts? Pick one to see what to type"


def _group(client: Any, slug: str) -> app_commands.Group | None:
    tree = getattr(client, "tree", None)
    found = tree.get_command(slug) if tree is not None else None
    return found if isinstance(found, app_commands.Group) else None


def _commands(client: Any, slug: str) -> dict[str, app_commands.Command[Any, ..., Any]]:
    group = _group(client, slug)
    return {c.name: c for c in group.commands if isinstance(c, app_commands.Command)} if group else {}


def specs_of(slug: str) -> Mapping[str, ActionSpec[Any, Any]]:
    """The action specs of the ruleset ``slug`` (none for a name that is no ruleset)."""
    return get_engine(slug).specs if slug in RULESETS else {}


def _quick_names(client: Any, slug: str) -> list[str]:
    """The ruleset's quick moves: its spec with the PASS role."""
    return [name for name, spec in specs_of(slug).items() if spec.role is Role.PASS]


def _figure_moves(client: Any, slug: str) -> list[tuple[app_commands.Command[Any, ..., Any], str]]:
    """The commands a figure acts with, each with the option naming the figure: the specs with
    ``acting`` set."""
    by_name = _commands(client, slug)
    return [
        (by_name[name], spec.acting)
        for name, spec in specs_of(slug).items()
        if spec.acting is not None and name in by_name
    ]


def quick_moves(client: Any, slug: str, now: MovesNow | None) -> list[app_commands.Command[Any, ..., Any]]:
    """The ruleset's quick moves, in the order of its specs: those the engine would carry out now,
    typed with no options (none when nobody is to move)."""
    if now is None:
        return []
    by_name = _commands(client, slug)
    quick = [by_name[n] for n in _quick_names(client, slug) if n in by_name]
    return [c for c in quick if now.accepts(c.name)][:MAX_QUICK]


def figure_commands(client: Any, slug: str, name: str) -> str:
    """The commands ``name`` acts with, written out for it: "`/ssg shoot shooter:Rossi target:… …`"
    (the option naming the figure, the others it needs, then "…" where more may be given)."""
    lines = []
    value = f'"{name}"' if " " in name else name
    for command, acting in _figure_moves(client, slug):
        rest = [p for p in command.parameters if p.display_name != acting]
        parts = [f"/{command.qualified_name}", f"{acting}:{value}"]
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
    quick = set(_quick_names(client, slug))
    placing = map_actions(slug)
    groups = [group for group in (_group(client, slug), _group(client, "map")) if group is not None]
    allowed = [
        command
        for group in groups
        for command in group.commands
        if isinstance(command, app_commands.Command)
        and command.name in now.allowed
        and command.name not in quick
        and (group.name == slug or command.name in placing)
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
    offer = bool(ready) and bool(_figure_moves(client, slug))
    if not moves and not offer:
        return None
    view = discord.ui.View(timeout=None)
    for command in moves:
        view.add_item(NextMoveButton(slug, command.name))
    if offer:
        view.add_item(ReadySelect(slug, ready))
    return view
