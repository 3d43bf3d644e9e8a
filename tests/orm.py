"""Test support: the ORM, to set up and inspect a database behind the store's back.

The bot itself never opens an ORM session (its store runs plain statements); tests use one to look
at rows as they are and to arrange what no command makes (a game from another campaign, a figure
already resting). ``orm(db)`` is one transaction in this process's turn on the database.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.database import Database
from bot.store.schema import GAME_IN_PLAY, Game


@asynccontextmanager
async def orm(db: Database) -> AsyncIterator[AsyncSession]:
    """An ORM session in one transaction: committed when the block ends, rolled back on an exception."""
    async with (
        db.connection() as connection,
        AsyncSession(bind=connection, expire_on_commit=False) as session,
        session.begin(),
    ):
        yield session


async def lock_game(session: AsyncSession, game_id: int) -> Game | None:
    """The game, locked for this transaction and freshly read (``None`` if there is none).

    PostgreSQL: ``SELECT ... FOR UPDATE`` waits for any other transaction holding the row and then
    returns its committed values. SQLite: a plain select (the ``BEGIN IMMEDIATE`` transaction
    already holds the database's write lock). Either way the values loaded overwrite whatever this
    session had in memory for the game.
    """
    statement = select(Game).where(Game.id == game_id).with_for_update().execution_options(populate_existing=True)
    return await session.scalar(statement)


_LOCK_ACTIVE_GAME = (
    select(Game)
    .where(Game.campaign_id == bindparam("campaign"), GAME_IN_PLAY)
    .with_for_update()
    .execution_options(populate_existing=True)
)


async def lock_active_game(session: AsyncSession, campaign_id: int) -> Game | None:
    """The campaign's active game, locked like :func:`lock_game` (``None`` if there is none)."""
    return await session.scalar(_LOCK_ACTIVE_GAME, {"campaign": campaign_id})
