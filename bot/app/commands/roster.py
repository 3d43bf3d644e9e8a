"""/roster: the figures each player brings to the campaign."""

from __future__ import annotations

from dataclasses import dataclass

from bot.app.commands.declared import Command, Upload
from bot.app.replies import Caller, Reply
from bot.app.service import App
from rules.specs import Kind, Params, option

GROUP = "The campaign's rosters"
FILE_HELP = "A YAML file (from an export, or written by hand)"


@dataclass(frozen=True, kw_only=True)
class AddOptions(Params):
    name: str = option("The figure's name", required=True, length=64)
    kind: str = option(
        "Its type, as the suggestions list (SSG: its weapon; NSR: the unit's troops; YASG: its class)",
        Kind.KIND,
        required=True,
        length=32,
    )
    side: str | None = option("Its side (default: yours; the game master may give any)", Kind.SIDE, length=32)
    stats: str | None = option("Extra stats as key=value pairs, where the ruleset has them", length=400)


@dataclass(frozen=True, kw_only=True)
class SideOptions(Params):
    side: str | None = option("Only this side's figures (default: every side)", Kind.SIDE, length=32)


@dataclass(frozen=True, kw_only=True)
class ExportOptions(Params):
    side: str | None = option(
        "The side to export (default: yours); the game master may also give all", Kind.SIDE, length=32
    )


@dataclass(frozen=True, kw_only=True)
class NameOptions(Params):
    name: str = option("The figure's name", Kind.ROSTER, required=True)


@dataclass(frozen=True, kw_only=True)
class FileOptions(Params):
    file: Upload = option(FILE_HELP, Kind.FILE, required=True)  # noqa: RUF009 (a field, not a default)


async def _add(app: App, caller: Caller, p: AddOptions) -> Reply:
    return await app.rosters.roster_add(caller, p.name, p.kind, p.side, p.stats)


async def _list(app: App, caller: Caller, p: SideOptions) -> Reply:
    return await app.rosters.roster_list(caller, p.side)


async def _show(app: App, caller: Caller, p: NameOptions) -> Reply:
    return await app.rosters.roster_show(caller, p.name)


async def _export(app: App, caller: Caller, p: ExportOptions) -> Reply:
    return await app.exchange.roster_export(caller, p.side)


async def _import(app: App, caller: Caller, p: FileOptions) -> Reply:
    return await app.exchange.roster_import(caller, p.file.filename, p.file.data)


async def _remove(app: App, caller: Caller, p: NameOptions) -> Reply:
    return await app.rosters.roster_remove(caller, p.name)


COMMANDS = (
    Command(("roster", "add"), "Add a figure to your side's roster", AddOptions, _add, lock=True),
    Command(("roster", "list"), "Every figure in the campaign, by side", SideOptions, _list),
    Command(("roster", "show"), "One figure's record", NameOptions, _show),
    Command(
        ("roster", "export"),
        "Your side's roster as a YAML file (the game master: any side, or all)",
        ExportOptions,
        _export,
    ),
    Command(("roster", "import"), "Add and update figures from a YAML roster file", FileOptions, _import, lock=True),
    Command(
        ("roster", "remove"),
        "Take a figure off the roster (its owner or the game master)",
        NameOptions,
        _remove,
        lock=True,
    ),
)
