"""One battle's table: the terminal front-end on a real SQLite file, fed one line at a time.

Every line goes through :meth:`bot.console.Console.run_line` in ``--json`` mode, exactly as
``skirmish-gm play --json`` runs a piped line, so the lines fed are the replay. Between lines the
saved game is read back from the store (:meth:`Table.snapshot`).
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bot.app.access import engine_of
from bot.app.service import App
from bot.console import Console
from bot.dice import BattleSeededDice, ForcedDice
from bot.store import Store, Unit
from bot.store.database import sqlite_url
from bot.store.records import Campaign, Decision, Game, LoggedAction
from rules.core import Engine

CHANNEL = 1


@dataclass(frozen=True)
class Snapshot:
    """The campaign and its newest game as saved after a line, with the game's log."""

    campaign: Campaign | None
    game: Game | None
    log: tuple[LoggedAction, ...] = ()
    decisions: tuple[Decision, ...] = ()

    @property
    def engine(self) -> Engine[Any]:
        assert self.campaign is not None
        return engine_of(self.campaign)

    def state(self) -> Any:
        assert self.game is not None
        return self.engine.load_state(self.game.state)

    @property
    def active(self) -> bool:
        return self.game is not None and self.game.status == "active" and self.game.winner is None

    def key(self) -> tuple[Any, ...]:
        """What a refused line must leave as it was: the state, its version, and the log."""
        if self.game is None:
            return (None,)
        entries = tuple((e.id, e.undone, len(e.rolls)) for e in self.log)
        return (json.dumps(self.game.state, sort_keys=True), self.game.version, self.game.dice_next, entries)


@dataclass
class Record:
    """What the terminal printed for one line (its ``--json`` record), and who typed it."""

    player: str
    line: str
    data: dict[str, Any]

    @property
    def ok(self) -> bool:
        return bool(self.data.get("ok"))

    @property
    def error(self) -> str | None:
        return self.data.get("error")


class BugLog(logging.Handler):
    """Errors the bot logged while a line ran (a swallowed exception is a failure too)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f": {type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
        self.seen.append(text)


@dataclass
class Table:
    """A terminal table on ``db``, its dice from ``seed`` as ``skirmish-gm play --battle-seed``."""

    db: Path
    seed: int
    files: Path | None = None
    lines: list[str] = field(default_factory=list)
    player: str = ""
    #: Told each line before it runs (the runner's watch on a worker that stops answering).
    on_line: Callable[[str], None] | None = None
    _game_id: int | None = None
    _entries: list[LoggedAction] = field(default_factory=list)

    async def open(self) -> None:
        self.forced = ForcedDice(fallback=BattleSeededDice(self.seed))
        self.store = await Store.open(sqlite_url(self.db))
        self.app = App(self.store, lambda: self.forced)
        self.out = io.StringIO()
        self.bot = self.app
        self.console = Console(self.bot, self.forced, player="GM", channel_id=CHANNEL, json_mode=True, out=self.out)
        self.bugs = BugLog()
        logging.getLogger("skirmish_gm").addHandler(self.bugs)

    async def close(self) -> None:
        logging.getLogger("skirmish_gm").removeHandler(self.bugs)
        await self.app.store.close()

    async def send(self, player: str, line: str) -> Record:
        """``line`` typed by ``player`` (an ``/as`` line first when the player changes)."""
        if player != self.player:
            await self._feed(f"/as {player}")
            self.player = player
        return Record(player, line, await self._feed(line))

    async def _feed(self, line: str) -> dict[str, Any]:
        self.lines.append(line)
        if self.on_line is not None:
            self.on_line(line)
        start = self.out.tell()
        await self.console.run_line(line)
        printed = self.out.getvalue()[start:].strip().splitlines()
        return json.loads(printed[-1]) if printed else {"ok": True, "command": line}

    async def snapshot(self) -> Snapshot:
        async with self.store.transaction() as u:
            campaign = await u.campaigns.active_in_channel(CHANNEL)
            if campaign is None:
                return Snapshot(None, None)
            game = await u.games.latest(campaign.id)
            log = await self._log(u, game.id) if game is not None else []
            decisions = await u.decisions.open_in_campaign(campaign.id)
        return Snapshot(campaign, game, tuple(log), tuple(decisions))

    async def _log(self, u: Unit, game_id: int) -> list[LoggedAction]:
        """The game's whole log: the entries read before kept, only the new ones and the undone
        marks read again (reading the whole log after every line was most of a battle's time)."""
        if self._game_id != game_id:
            self._game_id, self._entries = game_id, []
        last = self._entries[-1].seq if self._entries else 0
        self._entries += await u.log.entries_after(game_id, last)
        undone = await u.log.undone_ids(game_id)
        self._entries = [replace(e, undone=True) if e.id in undone and not e.undone else e for e in self._entries]
        return list(self._entries)

    async def report(self) -> tuple[Record, str | None]:
        """``/game report`` typed by the game master, and the battle's Markdown it attached."""
        record = await self.send("GM", "/game report")
        attached = str(record.data.get("attached") or "")
        start = attached.find("---\n")
        end = attached.rfind("\n--- end of ")
        return record, (attached[start + 4 : end] + "\n" if start >= 0 and end > start else None)
