"""/game: start a battle from the rosters, see it, read its log, report it, undo, end."""

from __future__ import annotations

from dataclasses import dataclass

from bot.app.commands.declared import Command
from bot.app.replies import Caller, Reply
from bot.app.reports import BATTLE_ID_MAX, LOG_PAGE_DEFAULT
from bot.app.service import App
from rules.specs import Kind, NoParams, Params, option

GROUP = "The battle in this channel"
BATTLE_HELP = "A past battle's number (default: this one, or the last)"


@dataclass(frozen=True, kw_only=True)
class StartOptions(Params):
    figures: str | None = option(
        "Who fights, by name, separated by commas (default: everyone able to)", Kind.NAMES, length=1000
    )


@dataclass(frozen=True, kw_only=True)
class LogOptions(Params):
    page: int | None = option("Which page (1 holds the newest actions)", Kind.WHOLE, lowest=1, highest=1_000_000)
    count: int | None = option("Actions a page (1-25, default 10)", Kind.WHOLE, lowest=1, highest=25)
    battle: int | None = option(BATTLE_HELP, Kind.WHOLE, lowest=1, highest=BATTLE_ID_MAX)


@dataclass(frozen=True, kw_only=True)
class ReportOptions(Params):
    battle: int | None = option(BATTLE_HELP, Kind.WHOLE, lowest=1, highest=BATTLE_ID_MAX)


async def _start(app: App, caller: Caller, p: StartOptions) -> Reply:
    return await app.games.game_start(caller, p.figures)


async def _status(app: App, caller: Caller, p: NoParams) -> Reply:
    return await app.games.game_status(caller)


async def _log(app: App, caller: Caller, p: LogOptions) -> Reply:
    return await app.reports.game_log(caller, p.count or LOG_PAGE_DEFAULT, p.page or 1, p.battle)


async def _report(app: App, caller: Caller, p: ReportOptions) -> Reply:
    return await app.reports.game_report(caller, p.battle)


async def _undo(app: App, caller: Caller, p: NoParams) -> Reply:
    return await app.games.game_undo(caller)


async def _end(app: App, caller: Caller, p: NoParams) -> Reply:
    return await app.games.game_end(caller)


COMMANDS = (
    Command(
        ("game", "start"),
        "Start a battle with the rosters (game master only)",
        StartOptions,
        _start,
        lock=True,
        gm_only=True,
        picture=True,
        follows=True,
    ),
    Command(("game", "status"), "Turn, phase, whose move, and every figure's state", NoParams, _status, picture=True),
    Command(("game", "log"), "The battle's log, newest first, a page at a time", LogOptions, _log),
    Command(
        ("game", "report"),
        "The whole battle as a Markdown file: sides, turns, every roll, result",
        ReportOptions,
        _report,
        late_note="The report follows in the channel.",
    ),
    Command(("game", "undo"), "Take back the last action (its player or the game master)", NoParams, _undo, lock=True),
    Command(("game", "end"), "End the battle in progress (game master only)", NoParams, _end, lock=True, gm_only=True),
)
