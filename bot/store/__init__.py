"""Persistence: the models, the database (one transaction per command) and the game lock.

db = await Database.open(url)                # migrates to head first
async with db.transaction() as session:      # commit on success, rollback on exception
    game = await lock_game(session, game_id)  # row lock (PostgreSQL) / write lock (SQLite)
    game.state = new_state                   # assign, do not mutate JSON in place
await db.close()
"""

from bot.store.database import (
    Database,
    alembic_config,
    downgrade,
    lock_active_game,
    lock_game,
    sqlite_url,
    upgrade,
)
from bot.store.schema import (
    ActionRecord,
    Base,
    Campaign,
    DecisionRecord,
    EventRecord,
    Figure,
    Game,
    Member,
    RollRecord,
)

__all__ = [
    "ActionRecord",
    "Base",
    "Campaign",
    "Database",
    "DecisionRecord",
    "EventRecord",
    "Figure",
    "Game",
    "Member",
    "RollRecord",
    "alembic_config",
    "downgrade",
    "lock_active_game",
    "lock_game",
    "sqlite_url",
    "upgrade",
]
