"""A game's log: every action as typed and as data, the state before it, its events and every die.

Appending an entry is at most three plain INSERTs; the log is never rewritten, only marked (an
undone action keeps its dice in the log).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Any, Literal

from sqlalchemy import bindparam, func, select, update

from bot.dice import RolledDie
from bot.store.columns import actions, columns_of, events, rolls
from bot.store.play import APPLIED, LAST_SEQ
from bot.store.records import LoggedAction
from bot.store.tx import Tx
from rules.core import Event

_ACTION = [
    actions.c[name]
    for name in (
        "id",
        "game_id",
        "seq",
        "interaction_id",
        "user_id",
        "side",
        "by_gm",
        "command",
        "action",
        "state_before",
        "undone",
        "created_at",
    )
]
#: Before a free roll: was this interaction applied already, and the log's last seq.
ROLL_CONTEXT = select(APPLIED, LAST_SEQ)
NEXT_SEQ = select(LAST_SEQ)
BY_INTERACTION = select(*_ACTION).where(actions.c.interaction_id == bindparam("interaction"))
LAST_UNDOABLE = (
    select(*_ACTION)
    .where(
        actions.c.game_id == bindparam("game"),
        actions.c.undone.is_(False),
        actions.c.command != bindparam("except_command"),
        actions.c.state_before.is_not(None),
    )
    .order_by(actions.c.seq.desc())
    .limit(1)
)
WITH_COMMAND = (
    select(*_ACTION)
    .where(
        actions.c.game_id == bindparam("game"),
        actions.c.command == bindparam("command"),
        actions.c.undone.is_(False),
    )
    .order_by(actions.c.seq)
)
ENTRIES = select(*_ACTION).where(actions.c.game_id == bindparam("game")).order_by(actions.c.seq)
FIRST = ENTRIES.where(actions.c.seq == 1)
COUNT = select(func.count()).select_from(actions).where(actions.c.game_id == bindparam("game"))
EVENTS_OF = (
    select(events.c.action_id, events.c.kind, events.c.text, events.c.data)
    .where(events.c.action_id == bindparam("action"))
    .order_by(events.c.seq)
)
_ROLL = (rolls.c.action_id, *columns_of(rolls, RolledDie))
ROLLS_OF = select(*_ROLL).where(rolls.c.action_id == bindparam("action")).order_by(rolls.c.seq)
ROLLS_OF_GAME = (
    select(*_ROLL)
    .join(actions, actions.c.id == rolls.c.action_id)
    .where(actions.c.game_id == bindparam("game"))
    .order_by(rolls.c.action_id, rolls.c.seq)
)
ENTRIES_AFTER = ENTRIES.where(actions.c.seq > bindparam("after"))
ROLLS_AFTER = ROLLS_OF_GAME.where(actions.c.seq > bindparam("after"))
UNDONE_IDS = select(actions.c.id).where(actions.c.game_id == bindparam("game"), actions.c.undone.is_(True))
MARK_UNDONE = update(actions).where(actions.c.id == bindparam("entry")).values(undone=True)


class Log:
    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    async def roll_context(self, game_id: int, interaction_id: int | None) -> tuple[bool, int]:
        """Was this interaction applied already, and the log's last seq."""
        row = await self._tx.first(ROLL_CONTEXT, {"interaction": interaction_id, "game": game_id})
        assert row is not None
        applied, last_seq = row
        return applied is not None and interaction_id is not None, last_seq or 0

    async def next_seq(self, game_id: int) -> int:
        return int(await self._tx.scalar(NEXT_SEQ, {"game": game_id}) or 0) + 1

    async def count(self, game_id: int) -> int:
        return int(await self._tx.scalar(COUNT, {"game": game_id}) or 0)

    async def applied(self, interaction_id: int) -> LoggedAction | None:
        """The entry an interaction wrote, with its events and dice (a repeated delivery)."""
        found = await self._entries(BY_INTERACTION, {"interaction": interaction_id}, events=True, rolls="entry")
        return found[0] if found else None

    async def last_undoable(self, game_id: int, *, except_command: str) -> LoggedAction | None:
        """The newest entry not undone that saved a state to go back to, with its dice (what taking it
        back would reveal)."""
        found = await self._entries(LAST_UNDOABLE, {"game": game_id, "except_command": except_command}, rolls="entry")
        return found[0] if found else None

    async def with_command(self, game_id: int, command: str) -> list[LoggedAction]:
        """The entries not undone whose command is ``command`` (the rules' own, such as the aftermath)."""
        return await self._entries(WITH_COMMAND, {"game": game_id, "command": command})

    async def first(self, game_id: int) -> LoggedAction | None:
        found = await self._entries(FIRST, {"game": game_id})
        return found[0] if found else None

    async def entries(self, game_id: int, *, with_rolls: bool = False) -> list[LoggedAction]:
        """The whole log of a game in order (with the dice of each entry when asked)."""
        return await self._entries(ENTRIES, {"game": game_id}, rolls="game" if with_rolls else "")

    async def entries_after(self, game_id: int, seq: int) -> list[LoggedAction]:
        """The log's entries after ``seq``, with their dice (a reader that keeps the older ones)."""
        rows = await self._tx.rows(ENTRIES_AFTER, {"game": game_id, "after": seq})
        found_rolls: dict[int, list[RolledDie]] = defaultdict(list)
        if rows:
            for action_id, *rolled in await self._tx.rows(ROLLS_AFTER, {"game": game_id, "after": seq}):
                found_rolls[action_id].append(RolledDie(*rolled))
        return [replace(LoggedAction(*row), rolls=found_rolls[row[0]]) for row in rows]

    async def undone_ids(self, game_id: int) -> set[int]:
        """The ids of the game's entries taken back."""
        return {row[0] for row in await self._tx.rows(UNDONE_IDS, {"game": game_id})}

    async def mark_undone(self, action_id: int) -> None:
        await self._tx.run(MARK_UNDONE, {"entry": action_id})

    async def _entries(
        self, statement: Any, params: dict[str, Any], *, events: bool = False, rolls: Literal["", "entry", "game"] = ""
    ) -> list[LoggedAction]:
        """Entries, with each one's events (``events``) and dice: read entry by entry (``rolls="entry"``,
        for a few entries) or for the whole game at once (``rolls="game"``)."""
        rows = await self._tx.rows(statement, params)
        if not rows:
            return []
        found_events: dict[int, list[Event]] = defaultdict(list)
        found_rolls: dict[int, list[RolledDie]] = defaultdict(list)
        for row in rows:
            if events:
                for action_id, kind, text, data in await self._tx.rows(EVENTS_OF, {"action": row[0]}):
                    found_events[action_id].append(Event(kind, text, data or {}))
            if rolls == "entry":
                for action_id, *rolled in await self._tx.rows(ROLLS_OF, {"action": row[0]}):
                    found_rolls[action_id].append(RolledDie(*rolled))
        if rolls == "game":
            for action_id, *rolled in await self._tx.rows(ROLLS_OF_GAME, {"game": rows[0][1]}):
                found_rolls[action_id].append(RolledDie(*rolled))
        return [replace(LoggedAction(*row), events=found_events[row[0]], rolls=found_rolls[row[0]]) for row in rows]
