"""Play-by-chat pace: one row per wait of a game, with its reminder and its deadline.

At most one row per game is current (``open``, or ``expired`` once the deadline's choice was
applied); ``closed`` when the game moved on. A reminder is claimed by a conditional UPDATE of
``reminded_at`` and a timeout by moving the row from ``open`` to ``expired`` under the game's lock,
so two bot processes on one database never send either twice.

The pace poll runs every 30 s on the event loop: :data:`GAMES_TO_SYNC` reads only the games whose
campaign keeps a pace or that still have a deadline running, through the partial indexes whose own
conditions it carries (``GAME_IN_PLAY``, ``DEADLINE_RUNNING``), so a thousand games in play cost
SQLite a fraction of a millisecond.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import and_, bindparam, insert, select, update

from bot.store.columns import build, campaigns, columns_of, deadlines, games
from bot.store.schema import DEADLINE_RUNNING, GAME_IN_PLAY
from bot.store.tx import Tx


@dataclass(frozen=True)
class Deadline:
    """A wait of a game: a side's ``decision`` or a side's ``turn``, and what happens at its deadline
    (``on_timeout``: "pass" or "gm"). ``game_version`` is the game's version when the wait was last
    compared with the game; ``outcome`` what was done at the deadline ("passed", "gm", "gm: <why>")."""

    id: int
    campaign_id: int
    game_id: int
    decision_id: int | None
    channel_id: int
    kind: str
    side: str
    on_timeout: str
    status: str
    started_at: datetime
    remind_at: datetime
    due_at: datetime
    reminded_at: datetime | None
    expired_at: datetime | None
    outcome: str | None
    game_version: int


@dataclass(frozen=True)
class NewDeadline:
    """A wait to start, open."""

    campaign_id: int
    game_id: int
    decision_id: int | None
    channel_id: int
    kind: str
    side: str
    on_timeout: str
    started_at: datetime
    remind_at: datetime
    due_at: datetime
    game_version: int


@dataclass(frozen=True)
class GameInStep:
    """A game the pace poll looks at: its version, whether its campaign keeps a pace, and the
    version its running deadline last saw (``None``: no deadline running)."""

    game_id: int
    version: int
    keeps_pace: bool
    seen_version: int | None


_DEADLINE = columns_of(deadlines, Deadline)
_WHEN = deadlines.c.due_at.type

#: Every poll: each active game whose campaign keeps a pace or that still has a wait, with the
#: version its wait last saw.
GAMES_TO_SYNC = (
    select(games.c.id, games.c.version, campaigns.c.settings, deadlines.c.game_version)
    .join(campaigns, campaigns.c.id == games.c.campaign_id)
    .outerjoin(deadlines, and_(deadlines.c.game_id == games.c.id, DEADLINE_RUNNING))
    .where(
        GAME_IN_PLAY,
        campaigns.c.active.is_(True),
        campaigns.c.settings["pace"].as_string().is_not(None) | deadlines.c.id.is_not(None),
    )
)
#: Waits of games that ended, or of campaigns that ended, end with them.
CLOSE_ENDED_WAITS = (
    update(deadlines)
    .where(
        DEADLINE_RUNNING,
        deadlines.c.game_id.in_(
            select(games.c.id)
            .join(campaigns, campaigns.c.id == games.c.campaign_id)
            .where(~GAME_IN_PLAY | campaigns.c.active.is_(False))
        ),
    )
    .values(status="closed")
)
#: The deadlines whose reminder is due (and whose deadline is not: then the timeout comes instead),
#: and those whose deadline passed, read every poll.
DUE_REMINDERS = (
    select(deadlines.c.id)
    .where(
        deadlines.c.status == "open",
        deadlines.c.reminded_at.is_(None),
        deadlines.c.remind_at <= bindparam("now"),
        deadlines.c.due_at > bindparam("now"),
    )
    .order_by(deadlines.c.remind_at)
)
DUE_TIMEOUTS = (
    select(deadlines.c.id)
    .where(deadlines.c.status == "open", deadlines.c.due_at <= bindparam("now"))
    .order_by(deadlines.c.due_at)
)
BY_ID = select(*_DEADLINE).where(deadlines.c.id == bindparam("deadline"))
BY_ID_LOCKED = BY_ID.with_for_update()
#: The game's current wait, row-locked on PostgreSQL for a change.
CURRENT = select(*_DEADLINE).where(deadlines.c.game_id == bindparam("game"), DEADLINE_RUNNING).with_for_update()
INSERT = insert(deadlines).returning(deadlines.c.id)
CLAIM_REMINDER = (
    update(deadlines)
    .where(
        deadlines.c.id == bindparam("deadline"),
        deadlines.c.status == "open",
        deadlines.c.reminded_at.is_(None),
        deadlines.c.remind_at <= bindparam("now"),
        deadlines.c.due_at > bindparam("now"),
    )
    .values(reminded_at=bindparam("claimed", type_=_WHEN))
)
RELEASE_REMINDER = (
    update(deadlines)
    .where(
        deadlines.c.id == bindparam("deadline"),
        deadlines.c.status == "open",
        deadlines.c.reminded_at == bindparam("claimed_at"),
    )
    .values(reminded_at=None)
)
EXPIRE = (
    update(deadlines)
    .where(deadlines.c.id == bindparam("deadline"))
    .values(
        status="expired",
        expired_at=bindparam("when", type_=_WHEN),
        outcome=bindparam("new_outcome"),
    )
)
CLOSE = update(deadlines).where(deadlines.c.id == bindparam("deadline")).values(status="closed")
CLOSE_RUNNING_IN_CAMPAIGN = (
    update(deadlines).where(deadlines.c.campaign_id == bindparam("campaign"), DEADLINE_RUNNING).values(status="closed")
)
SEEN = update(deadlines).where(deadlines.c.id == bindparam("deadline")).values(game_version=bindparam("new_version"))


class Deadlines:
    """The deadlines table, in the pace's words."""

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    async def _one(self, statement: Any, params: dict[str, Any]) -> Deadline | None:
        row = await self._tx.first(statement, params)
        return None if row is None else build(Deadline, row)

    async def games_to_sync(self) -> list[GameInStep]:
        """Every active game whose campaign keeps a pace or that still has a deadline running."""
        return [
            GameInStep(game_id, version, bool((settings or {}).get("pace")), seen)
            for game_id, version, settings, seen in await self._tx.rows(GAMES_TO_SYNC)
        ]

    async def close_ended_waits(self) -> int:
        """Close the waits of games, or campaigns, that ended; how many there were."""
        return await self._tx.run(CLOSE_ENDED_WAITS, {})

    async def due_reminders(self, now: datetime) -> list[int]:
        return [row[0] for row in await self._tx.rows(DUE_REMINDERS, {"now": now})]

    async def due_timeouts(self, now: datetime) -> list[int]:
        return [row[0] for row in await self._tx.rows(DUE_TIMEOUTS, {"now": now})]

    async def get(self, deadline_id: int, *, lock: bool = False) -> Deadline | None:
        return await self._one(BY_ID_LOCKED if lock else BY_ID, {"deadline": deadline_id})

    async def current(self, game_id: int) -> Deadline | None:
        """The game's current wait (open or expired), row-locked for a change."""
        return await self._one(CURRENT, {"game": game_id})

    async def add(self, new: NewDeadline) -> Deadline:
        """Start a wait, open (the game's current one must be closed first)."""
        values: dict[str, Any] = {
            "campaign_id": new.campaign_id,
            "game_id": new.game_id,
            "decision_id": new.decision_id,
            "channel_id": new.channel_id,
            "kind": new.kind,
            "side": new.side,
            "on_timeout": new.on_timeout,
            "status": "open",
            "started_at": new.started_at,
            "remind_at": new.remind_at,
            "due_at": new.due_at,
            "reminded_at": None,
            "expired_at": None,
            "outcome": None,
            "game_version": new.game_version,
        }
        deadline_id = await self._tx.scalar(INSERT, values)
        return Deadline(deadline_id, **values)

    async def claim_reminder(self, deadline_id: int, now: datetime) -> bool:
        """Claim a due reminder for this transaction; ``False`` when it was claimed already or is not due."""
        return await self._tx.run(CLAIM_REMINDER, {"deadline": deadline_id, "now": now, "claimed": now}) == 1

    async def release_reminder(self, deadline_id: int, claimed_at: datetime) -> None:
        """Give back a reminder claimed at ``claimed_at``, so it is claimed again."""
        await self._tx.run(RELEASE_REMINDER, {"deadline": deadline_id, "claimed_at": claimed_at})

    async def expire(self, deadline: Deadline, when: datetime, outcome: str) -> Deadline:
        """The deadline passed and ``outcome`` was done; the wait stays the game's current one."""
        await self._tx.run(EXPIRE, {"deadline": deadline.id, "when": when, "new_outcome": outcome})
        return replace(deadline, status="expired", expired_at=when, outcome=outcome)

    async def close(self, deadline_id: int) -> None:
        """The game moved on: this wait is over."""
        await self._tx.run(CLOSE, {"deadline": deadline_id})

    async def close_running(self, campaign_id: int) -> int:
        """Close every running wait of a campaign's games; how many there were."""
        return await self._tx.run(CLOSE_RUNNING_IN_CAMPAIGN, {"campaign": campaign_id})

    async def seen(self, deadline: Deadline, version: int) -> Deadline:
        """The wait compared with the game at ``version`` and found the same."""
        if deadline.game_version != version:
            await self._tx.run(SEEN, {"deadline": deadline.id, "new_version": version})
        return replace(deadline, game_version=version)
