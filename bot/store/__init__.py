"""The store: the only code that talks to the database.

    store = await Store.open(url)               # migrates to head first
    async with store.transaction() as unit:     # one command, one transaction
        campaign = await unit.campaigns.here(guild_id, channel_id)

Its methods take and return plain frozen records (:mod:`bot.store.records`); the ORM models in
:mod:`bot.store.schema` are the schema that Alembic and the migrations' test use. Database trouble
leaves a transaction as :class:`Conflict` or :class:`Busy`, sentences a player may read.
"""

from bot.store import records
from bot.store.database import Database, alembic_config, downgrade, sqlite_url, upgrade
from bot.store.errors import Busy, Conflict
from bot.store.store import Store, Unit

__all__ = [
    "Busy",
    "Conflict",
    "Database",
    "Store",
    "Unit",
    "alembic_config",
    "downgrade",
    "records",
    "sqlite_url",
    "upgrade",
]
