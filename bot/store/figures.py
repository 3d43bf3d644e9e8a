"""The rosters: every figure a campaign keeps from battle to battle."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, func, insert, select, update

from bot.store.column_values import utcnow
from bot.store.columns import build, columns_of, figures
from bot.store.records import Figure
from bot.store.tx import Tx

_FIGURE = columns_of(figures, Figure)
BY_ID = select(*_FIGURE).where(figures.c.campaign_id == bindparam("campaign")).order_by(figures.c.id)
BY_SIDE_AND_NAME = (
    select(*_FIGURE).where(figures.c.campaign_id == bindparam("campaign")).order_by(figures.c.side, figures.c.name)
)
NAMED = select(*_FIGURE).where(
    figures.c.campaign_id == bindparam("campaign"), func.lower(figures.c.name) == bindparam("folded")
)
NAMES = select(figures.c.name).where(figures.c.campaign_id == bindparam("campaign")).order_by(figures.c.name)
COUNT = select(func.count()).select_from(figures).where(figures.c.campaign_id == bindparam("campaign"))
INSERT = insert(figures).returning(figures.c.id)
DELETE = figures.delete().where(figures.c.id == bindparam("figure"))
_JSON = figures.c.stats.type
UPDATE = (
    update(figures)
    .where(figures.c.id == bindparam("figure"))
    .values(
        owner_id=bindparam("new_owner"),
        side=bindparam("new_side"),
        kind=bindparam("new_kind"),
        stats=bindparam("new_stats", type_=_JSON),
        status=bindparam("new_status"),
        history=bindparam("new_history", type_=figures.c.history.type),
    )
)


class Figures:
    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    async def all(self, campaign_id: int, *, by_side: bool = False) -> list[Figure]:
        """The campaign's figures in the order they joined (or by side, then name)."""
        rows = await self._tx.rows(BY_SIDE_AND_NAME if by_side else BY_ID, {"campaign": campaign_id})
        return [build(Figure, row) for row in rows]

    async def named(self, campaign_id: int, name: str) -> Figure | None:
        """The figure called ``name``, white space folded and case ignored."""
        wanted = " ".join((name or "").split()).lower()
        row = await self._tx.first(NAMED, {"campaign": campaign_id, "folded": wanted})
        return None if row is None else build(Figure, row)

    async def names(self, campaign_id: int) -> list[str]:
        return [row[0] for row in await self._tx.rows(NAMES, {"campaign": campaign_id})]

    async def count(self, campaign_id: int) -> int:
        return int(await self._tx.scalar(COUNT, {"campaign": campaign_id}) or 0)

    async def add(
        self,
        campaign_id: int,
        *,
        owner_id: int,
        name: str,
        side: str,
        kind: str,
        stats: dict[str, Any],
        status: str = "active",
        history: list[Any] | None = None,
    ) -> Figure:
        history = list(history or [])
        figure_id = await self._tx.scalar(
            INSERT,
            {
                "campaign_id": campaign_id,
                "owner_id": owner_id,
                "name": name,
                "side": side,
                "kind": kind,
                "stats": dict(stats),
                "status": status,
                "history": history,
                "created_at": utcnow(),
            },
        )
        return Figure(figure_id, campaign_id, owner_id, name, side, kind, dict(stats), status, history)

    async def save(self, figure: Figure) -> None:
        """Write what a figure carries now: owner, side, kind, stats, status and history."""
        await self._tx.run(
            UPDATE,
            {
                "figure": figure.id,
                "new_owner": figure.owner_id,
                "new_side": figure.side,
                "new_kind": figure.kind,
                "new_stats": dict(figure.stats),
                "new_status": figure.status,
                "new_history": list(figure.history),
            },
        )

    async def remove(self, figure_id: int) -> None:
        await self._tx.run(DELETE, {"figure": figure_id})
