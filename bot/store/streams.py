"""A campaign's provable dice for free rolls between battles: its open stream, each roll, and the
streams revealed (when the next battle starts, or the campaign ends)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update

from bot.store.column_values import utcnow
from bot.store.columns import build, columns_of, free_rolls, roll_streams
from bot.store.tx import Tx


@dataclass(frozen=True)
class RollStream:
    """A stream of free rolls: ``secret`` (hex) is shown only once ``revealed_at`` is set."""

    id: int
    campaign_id: int
    commitment: str
    next_draw: int
    note: str | None
    revealed_at: datetime | None
    secret: str = field(repr=False)


@dataclass(frozen=True)
class FreeRoll:
    """One free roll of a stream, with its draws as :meth:`bot.provable.Draw.to_data` writes them."""

    seq: int
    user_id: int
    interaction_id: int | None
    command: str
    draws: list[dict[str, Any]]


_STREAM = columns_of(roll_streams, RollStream)
_ROLL = columns_of(free_rolls, FreeRoll)
OPEN = (
    select(*_STREAM)
    .where(roll_streams.c.campaign_id == bindparam("campaign"), roll_streams.c.revealed_at.is_(None))
    .order_by(roll_streams.c.id.desc())
    .limit(1)
)
REVEALED = (
    select(*_STREAM)
    .where(roll_streams.c.campaign_id == bindparam("campaign"), roll_streams.c.revealed_at.is_not(None))
    .order_by(roll_streams.c.id)
)
INSERT_STREAM = insert(roll_streams).returning(roll_streams.c.id)
INSERT_ROLL = insert(free_rolls)
ADVANCE = (
    update(roll_streams)
    .where(roll_streams.c.id == bindparam("stream"))
    .values(next_draw=bindparam("next_draw"), note=func.coalesce(roll_streams.c.note, bindparam("new_note")))
)
REVEAL = update(roll_streams).where(roll_streams.c.id == bindparam("stream")).values(revealed_at=bindparam("at"))
ROLLS = select(*_ROLL).where(free_rolls.c.stream_id == bindparam("stream")).order_by(free_rolls.c.seq)
BY_INTERACTION = select(*_ROLL).where(free_rolls.c.interaction_id == bindparam("interaction"))
LAST_SEQ = select(func.max(free_rolls.c.seq)).where(free_rolls.c.stream_id == bindparam("stream"))


class Streams:
    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    async def open_stream(self, campaign_id: int) -> RollStream | None:
        """The campaign's stream for free rolls not yet revealed, if one was begun."""
        row = await self._tx.first(OPEN, {"campaign": campaign_id})
        return None if row is None else build(RollStream, row)

    async def begin(self, campaign_id: int, secret: str, commitment: str) -> RollStream:
        stream_id = await self._tx.scalar(
            INSERT_STREAM,
            {
                "campaign_id": campaign_id,
                "secret": secret,
                "commitment": commitment,
                "next_draw": 0,
                "note": None,
                "created_at": utcnow(),
                "revealed_at": None,
            },
        )
        return RollStream(int(stream_id), campaign_id, commitment, 0, None, None, secret)

    async def add_roll(self, stream: RollStream, roll: FreeRoll, next_draw: int, note: str | None) -> RollStream:
        """Log a free roll and move the stream on to ``next_draw``."""
        await self._tx.run(INSERT_ROLL, {"stream_id": stream.id, "created_at": utcnow(), **roll.__dict__})
        await self._tx.run(ADVANCE, {"stream": stream.id, "next_draw": next_draw, "new_note": note})
        return replace(stream, next_draw=next_draw, note=stream.note or note)

    async def applied(self, interaction_id: int | None) -> FreeRoll | None:
        """The free roll an interaction made already (a repeated delivery), if any."""
        if interaction_id is None:
            return None
        row = await self._tx.first(BY_INTERACTION, {"interaction": interaction_id})
        return None if row is None else build(FreeRoll, row)

    async def next_seq(self, stream: RollStream) -> int:
        return int(await self._tx.scalar(LAST_SEQ, {"stream": stream.id}) or 0) + 1

    async def reveal(self, stream: RollStream, at: datetime) -> RollStream:
        await self._tx.run(REVEAL, {"stream": stream.id, "at": at})
        return replace(stream, revealed_at=at)

    async def revealed(self, campaign_id: int) -> list[tuple[RollStream, list[FreeRoll]]]:
        """The campaign's revealed streams, each with its rolls in order."""
        found = []
        for row in await self._tx.rows(REVEALED, {"campaign": campaign_id}):
            stream = build(RollStream, row)
            rolls = [build(FreeRoll, r) for r in await self._tx.rows(ROLLS, {"stream": stream.id})]
            found.append((stream, rolls))
        return found
