"""A battle's log read for the reader: /game log a page at a time, and /game report whole.

A log is read in three queries whatever its length (the actions, their events, their dice), for
speed on long battles (thousands of actions): the saved states (the largest column) are never read,
and an event's data is decoded only for the kinds the reader asks for; the others keep an empty
mapping.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Text, bindparam, cast, select

from bot.dice import RolledDie
from bot.store.columns import actions, columns_of, events, games, rolls
from bot.store.tx import Tx
from rules.core import Event


@dataclass(frozen=True)
class BattleHead:
    """What a report says of a battle beside its log: its ruleset, when it began and ended, and
    the first action's data (the game's start, with the figures each side began with)."""

    ruleset: str
    created_at: datetime
    ended_at: datetime | None
    start: Any


@dataclass(frozen=True)
class LogLine:
    """An action of the log as a reader may see it, before anything is kept back: ``secret`` when
    it is a game master's secret roll."""

    seq: int
    user_id: int
    side: str | None
    by_gm: bool
    command: str
    undone: bool
    secret: bool
    events: tuple[Event, ...]
    rolls: tuple[RolledDie, ...]


_LINE = (
    actions.c.id,
    actions.c.seq,
    actions.c.user_id,
    actions.c.side,
    actions.c.by_gm,
    actions.c.command,
    actions.c.undone,
)
_OF_GAME = actions.c.game_id == bindparam("game")
WHOLE = select(*_LINE).where(_OF_GAME).order_by(actions.c.seq)
#: A page, newest first: ``limit`` actions after the newest ``offset``.
PAGE = (
    select(*_LINE).where(_OF_GAME).order_by(actions.c.seq.desc()).limit(bindparam("limit")).offset(bindparam("offset"))
)
_PAGE_IDS = (
    select(actions.c.id)
    .where(_OF_GAME)
    .order_by(actions.c.seq.desc())
    .limit(bindparam("limit"))
    .offset(bindparam("offset"))
    .subquery()
)
_EVENT = (events.c.action_id, events.c.kind, events.c.text, cast(events.c.data, Text))
_ROLL = (rolls.c.action_id, *columns_of(rolls, RolledDie), rolls.c.secret)
_EVENT_ORDER = (events.c.action_id, events.c.seq)
_ROLL_ORDER = (rolls.c.action_id, rolls.c.seq)
WHOLE_EVENTS = select(*_EVENT).join(actions, events.c.action_id == actions.c.id).where(_OF_GAME).order_by(*_EVENT_ORDER)
WHOLE_ROLLS = select(*_ROLL).join(actions, rolls.c.action_id == actions.c.id).where(_OF_GAME).order_by(*_ROLL_ORDER)
PAGE_EVENTS = select(*_EVENT).join(_PAGE_IDS, events.c.action_id == _PAGE_IDS.c.id).order_by(*_EVENT_ORDER)
PAGE_ROLLS = select(*_ROLL).join(_PAGE_IDS, rolls.c.action_id == _PAGE_IDS.c.id).order_by(*_ROLL_ORDER)
HEAD = select(
    games.c.ruleset,
    games.c.created_at,
    games.c.ended_at,
    select(actions.c.action).where(actions.c.game_id == games.c.id).order_by(actions.c.seq).limit(1).scalar_subquery(),
).where(games.c.id == bindparam("game"))


def _event_data(kind: str, raw: str | None, kinds: Collection[str]) -> dict[str, Any]:
    if kind not in kinds or not raw:
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


class Reports:
    """A battle's log and what its report says beside it."""

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    async def head(self, game_id: int) -> BattleHead | None:
        row = await self._tx.first(HEAD, {"game": game_id})
        return None if row is None else BattleHead(*row)

    async def lines(
        self, game_id: int, *, data_of: Collection[str], limit: int | None = None, offset: int = 0
    ) -> list[LogLine]:
        """The game's actions with their events and dice: with ``limit``, a page of them newest
        first; without, all of them in order. Event data is decoded for the kinds in ``data_of``."""
        if limit is None:
            params: dict[str, Any] = {"game": game_id}
            statements = (WHOLE, WHOLE_EVENTS, WHOLE_ROLLS)
        else:
            params = {"game": game_id, "limit": limit, "offset": offset}
            statements = (PAGE, PAGE_EVENTS, PAGE_ROLLS)
        rows = await self._tx.rows(statements[0], params)
        if not rows:
            return []
        found_events: defaultdict[int, list[Event]] = defaultdict(list)
        secret: set[int] = set()
        for action_id, kind, text, raw in await self._tx.rows(statements[1], params):
            data = _event_data(kind, raw, data_of)
            found_events[action_id].append(Event(kind, text, data))
            if data.get("secret") is True:
                secret.add(action_id)
        found_rolls: defaultdict[int, list[RolledDie]] = defaultdict(list)
        for action_id, *rolled, is_secret in await self._tx.rows(statements[2], params):
            found_rolls[action_id].append(RolledDie(*rolled))
            if is_secret:
                secret.add(action_id)
        return [
            LogLine(
                seq,
                user_id,
                side,
                bool(by_gm),
                command,
                bool(undone),
                action_id in secret,
                tuple(found_events.get(action_id, ())),
                tuple(found_rolls.get(action_id, ())),
            )
            for action_id, seq, user_id, side, by_gm, command, undone in rows
        ]
