"""Battles: the game in progress (locked for a change), its state and its version.

Every write of a game's row checks the version it was read at and bumps it, so a stale copy can
never overwrite a newer one: a lost race raises :class:`bot.store.errors.Conflict`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update

from bot.store.column_values import utcnow
from bot.store.columns import build, columns_of, games
from bot.store.errors import Conflict
from bot.store.play import GAME_IN_PROGRESS, GAME_IN_PROGRESS_LOCKED
from bot.store.records import Game
from bot.store.tx import Tx

_GAME = columns_of(games, Game)
IN_PROGRESS = GAME_IN_PROGRESS
IN_PROGRESS_LOCKED = GAME_IN_PROGRESS_LOCKED
LATEST = select(*_GAME).where(games.c.campaign_id == bindparam("campaign")).order_by(games.c.id.desc()).limit(1)
LATEST_LOCKED = LATEST.with_for_update()
BY_ID = select(*_GAME).where(games.c.id == bindparam("game"))
BY_ID_LOCKED = BY_ID.with_for_update()
BY_NUMBER = select(*_GAME).where(games.c.campaign_id == bindparam("campaign"), games.c.number == bindparam("number"))
NUMBERS = select(games.c.number).where(games.c.campaign_id == bindparam("campaign"))
LAST_NUMBER = select(func.max(games.c.number)).where(games.c.campaign_id == bindparam("campaign"))
COUNT = select(func.count()).select_from(games).where(games.c.campaign_id == bindparam("campaign"))
INSERT = insert(games).returning(games.c.id)
SET_OUTCOME = (
    update(games)
    .where(games.c.id == bindparam("game"), games.c.version == bindparam("seen"))
    .values(
        status=bindparam("new_status"),
        winner=bindparam("new_winner"),
        ended_at=bindparam("new_ended_at", type_=games.c.ended_at.type),
        version=games.c.version + 1,
    )
)


@dataclass(frozen=True)
class BattleStream:
    """A battle's provable dice as stored: the secret and its commitment (hex), the next draw
    number, and why some dice did not come from the secret, if any did not."""

    secret: str | None = None
    commitment: str | None = None
    next_draw: int = 0
    note: str | None = None


class Games:
    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    async def _one(self, statement: Any, params: dict[str, Any]) -> Game | None:
        row = await self._tx.first(statement, params)
        return None if row is None else build(Game, row)

    async def in_progress(self, campaign_id: int, *, lock: bool = False) -> Game | None:
        """The campaign's game in progress; with ``lock``, row-locked for a change (PostgreSQL)."""
        return await self._one(IN_PROGRESS_LOCKED if lock else IN_PROGRESS, {"campaign": campaign_id})

    async def latest(self, campaign_id: int, *, lock: bool = False) -> Game | None:
        """The campaign's newest game, in progress or over."""
        return await self._one(LATEST_LOCKED if lock else LATEST, {"campaign": campaign_id})

    async def get(self, game_id: int, *, lock: bool = False) -> Game | None:
        return await self._one(BY_ID_LOCKED if lock else BY_ID, {"game": game_id})

    async def numbered(self, campaign_id: int, number: int) -> Game | None:
        return await self._one(BY_NUMBER, {"campaign": campaign_id, "number": number})

    async def numbers(self, campaign_id: int) -> list[int]:
        return [row[0] for row in await self._tx.rows(NUMBERS, {"campaign": campaign_id})]

    async def last_number(self, campaign_id: int) -> int:
        return int(await self._tx.scalar(LAST_NUMBER, {"campaign": campaign_id}) or 0)

    async def count(self, campaign_id: int) -> int:
        return int(await self._tx.scalar(COUNT, {"campaign": campaign_id}) or 0)

    async def create(
        self, campaign_id: int, number: int, ruleset: str, state: dict[str, Any], dice: BattleStream | None = None
    ) -> Game:
        """A new battle in play; ``dice`` its provable stream as its start left it."""
        dice = dice or BattleStream()
        game_id = await self._tx.scalar(
            INSERT,
            {
                "campaign_id": campaign_id,
                "number": number,
                "ruleset": ruleset,
                "status": "active",
                "state": state,
                "version": 1,
                "winner": None,
                "created_at": utcnow(),
                "ended_at": None,
                "dice_secret": dice.secret,
                "dice_commitment": dice.commitment,
                "dice_next": dice.next_draw,
                "dice_note": dice.note,
            },
        )
        return Game(
            game_id,
            campaign_id,
            number,
            "active",
            state,
            1,
            None,
            dice.commitment,
            dice.next_draw,
            dice.note,
            dice.secret,
        )

    async def set_outcome(self, game: Game, *, status: str, winner: str | None, ended_at: datetime | None) -> Game:
        """The game ended (``status="ended"``, with its winner if any) or back in play (``"active"``)."""
        params = {
            "game": game.id,
            "seen": game.version,
            "new_status": status,
            "new_winner": winner,
            "new_ended_at": ended_at,
        }
        if await self._tx.run(SET_OUTCOME, params) != 1:
            raise Conflict(f"game {game.id} changed under this transaction (version {game.version})")
        return replace(game, status=status, version=game.version + 1, winner=winner)
