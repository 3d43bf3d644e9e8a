"""Decisions that wait for one player or the game master, for hours if need be."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, insert, select, update

from bot.store.column_values import utcnow
from bot.store.columns import decisions
from bot.store.records import Decision, NewDecision
from bot.store.tx import Tx
from rules.core import Choice

_DECISION = [
    decisions.c[name]
    for name in (
        "id",
        "campaign_id",
        "game_id",
        "decider",
        "user_id",
        "kind",
        "prompt",
        "choices",
        "resume",
        "status",
        "answer",
    )
]
BY_ID = select(*_DECISION).where(decisions.c.id == bindparam("decision"))
BY_ID_LOCKED = BY_ID.with_for_update()
OPEN_IN_CAMPAIGN = (
    select(*_DECISION)
    .where(decisions.c.campaign_id == bindparam("campaign"), decisions.c.status == "open")
    .order_by(decisions.c.id)
)
OPEN_IN_GAME = (
    select(*_DECISION)
    .where(decisions.c.game_id == bindparam("game"), decisions.c.status == "open")
    .order_by(decisions.c.id)
)
#: The game's oldest open decision and when it was asked (the pace clocks a decision from then).
FIRST_OPEN_IN_GAME = (
    select(*_DECISION, decisions.c.created_at)
    .where(decisions.c.game_id == bindparam("game"), decisions.c.status == "open")
    .order_by(decisions.c.id)
    .limit(1)
)
OPEN_JOIN = select(decisions.c.id).where(
    decisions.c.campaign_id == bindparam("campaign"),
    decisions.c.status == "open",
    decisions.c.kind == "join",
    decisions.c.user_id == bindparam("user"),
)
INSERT = insert(decisions).returning(decisions.c.id)
ANSWER = (
    update(decisions)
    .where(decisions.c.id == bindparam("decision"))
    .values(
        status="answered",
        answer=bindparam("value"),
        answered_at=bindparam("when", type_=decisions.c.answered_at.type),
    )
)
CANCEL_OPEN_IN_GAME = (
    update(decisions)
    .where(decisions.c.game_id == bindparam("game"), decisions.c.status == "open")
    .values(status="cancelled")
)
CANCEL_OPEN_KIND_IN_GAME = CANCEL_OPEN_IN_GAME.where(decisions.c.kind == bindparam("of_kind"))
CANCEL_OPEN_IN_CAMPAIGN = (
    update(decisions)
    .where(decisions.c.campaign_id == bindparam("campaign"), decisions.c.status == "open")
    .values(status="cancelled")
)


def _decision(row: Any) -> Decision:
    values = list(row)
    values[7] = tuple(Choice(c["value"], c["label"]) for c in (values[7] or ()))
    values[8] = dict(values[8] or {})
    return Decision(*values)


class Decisions:
    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    async def add(self, new: NewDecision) -> Decision:
        """Store a decision, open."""
        choices = [{"value": c.value, "label": c.label} for c in new.choices]
        decision_id = await self._tx.scalar(
            INSERT,
            {
                "campaign_id": new.campaign_id,
                "game_id": new.game_id,
                "decider": new.decider,
                "user_id": new.user_id,
                "kind": new.kind[:32],
                "prompt": new.prompt,
                "choices": choices,
                "resume": dict(new.resume),
                "status": "open",
                "answer": None,
                "channel_id": new.channel_id,
                "message_id": None,
                "created_at": utcnow(),
                "answered_at": None,
            },
        )
        return Decision(
            decision_id,
            new.campaign_id,
            new.game_id,
            new.decider,
            new.user_id,
            new.kind[:32],
            new.prompt,
            tuple(new.choices),
            dict(new.resume),
            "open",
            None,
        )

    async def get(self, decision_id: int, *, lock: bool = False) -> Decision | None:
        row = await self._tx.first(BY_ID_LOCKED if lock else BY_ID, {"decision": decision_id})
        return None if row is None else _decision(row)

    async def open_in_campaign(self, campaign_id: int) -> list[Decision]:
        """Every open decision of a campaign, its games' and its own, oldest first."""
        return [_decision(row) for row in await self._tx.rows(OPEN_IN_CAMPAIGN, {"campaign": campaign_id})]

    async def open_in_game(self, game_id: int) -> list[Decision]:
        return [_decision(row) for row in await self._tx.rows(OPEN_IN_GAME, {"game": game_id})]

    async def join_waiting(self, campaign_id: int, user_id: int) -> bool:
        """Whether the user's request to join the campaign still waits for the game master."""
        return await self._tx.first(OPEN_JOIN, {"campaign": campaign_id, "user": user_id}) is not None

    async def answer(self, decision_id: int, value: str, when: datetime) -> None:
        await self._tx.run(ANSWER, {"decision": decision_id, "value": value, "when": when})

    async def cancel_open(
        self, *, game_id: int | None = None, campaign_id: int | None = None, kind: str | None = None
    ) -> int:
        """Cancel the open decisions of a game (only those of ``kind``, when given) or of a whole
        campaign; how many there were."""
        if game_id is not None and kind is not None:
            return await self._tx.run(CANCEL_OPEN_KIND_IN_GAME, {"game": game_id, "of_kind": kind})
        if game_id is not None:
            return await self._tx.run(CANCEL_OPEN_IN_GAME, {"game": game_id})
        return await self._tx.run(CANCEL_OPEN_IN_CAMPAIGN, {"campaign": campaign_id})

    async def first_open_in_game(self, game_id: int) -> tuple[Decision, datetime] | None:
        """The game's oldest open decision, and when it was asked."""
        row = await self._tx.first(FIRST_OPEN_IN_GAME, {"game": game_id})
        return None if row is None else (_decision(row[:-1]), row[-1])
