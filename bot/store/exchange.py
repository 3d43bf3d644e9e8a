"""A roster or campaign file's writes: many figures added and changed, requests to join answered.

An import checks the whole file first and then writes it at once (up to ``MAX_FIGURES`` figures),
so each kind of write here is one statement run for every row, not a round trip per row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, insert, update

from bot.store.column_values import utcnow
from bot.store.columns import decisions, figures
from bot.store.figures import UPDATE as UPDATE_FIGURE
from bot.store.records import Figure
from bot.store.tx import Tx

INSERT_FIGURE = insert(figures)
CANCEL_JOIN_REQUEST = (
    update(decisions)
    .where(
        decisions.c.campaign_id == bindparam("campaign"),
        decisions.c.kind == "join",
        decisions.c.status == "open",
        decisions.c.user_id == bindparam("user"),
    )
    .values(status="cancelled")
)


@dataclass(frozen=True)
class NewFigure:
    """A figure a file adds to a campaign's roster."""

    owner_id: int
    name: str
    side: str
    kind: str
    stats: dict[str, Any]
    status: str = "active"
    history: list[Any] = field(default_factory=list)


class Exchange:
    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    async def add_figures(self, campaign_id: int, new: Sequence[NewFigure]) -> None:
        """Add ``new`` to the campaign's roster, in that order."""
        now = utcnow()
        await self._tx.run(
            INSERT_FIGURE,
            [
                {
                    "campaign_id": campaign_id,
                    "owner_id": f.owner_id,
                    "name": f.name,
                    "side": f.side,
                    "kind": f.kind,
                    "stats": dict(f.stats),
                    "status": f.status,
                    "history": list(f.history),
                    "created_at": now,
                }
                for f in new
            ],
        )

    async def save_figures(self, changed: Sequence[Figure]) -> None:
        """Write what each figure carries now (as :meth:`bot.store.figures.Figures.save` does one)."""
        await self._tx.run(
            UPDATE_FIGURE,
            [
                {
                    "figure": f.id,
                    "new_owner": f.owner_id,
                    "new_side": f.side,
                    "new_kind": f.kind,
                    "new_stats": dict(f.stats),
                    "new_status": f.status,
                    "new_history": list(f.history),
                }
                for f in changed
            ],
        )

    async def cancel_join_requests(self, campaign_id: int, user_ids: Sequence[int]) -> None:
        """The open requests to join of ``user_ids``, answered by the file: cancelled."""
        await self._tx.run(CANCEL_JOIN_REQUEST, [{"campaign": campaign_id, "user": user} for user in user_ids])
