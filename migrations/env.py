"""Alembic environment: async, configured in code (no alembic.ini), SQLite and PostgreSQL.

Where the database comes from, first match wins:

1. ``config.attributes["connection"]``: a synchronous SQLAlchemy ``Connection`` to run on (for
   example ``AsyncConnection.run_sync``'s argument); used as is, inside its own transaction.
2. ``config.attributes["sqlalchemy.url"]``, else the ``sqlalchemy.url`` main option: an async
   URL (``sqlite+aiosqlite://`` or ``postgresql+asyncpg://``); a NullPool engine is made for it
   and driven with ``asyncio.run`` (call the alembic command from a worker thread when an event
   loop is running, as :func:`bot.store.database.upgrade` does).

Logging is left alone: there is no ini file and the application owns the logging set-up.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

from alembic import context
from sqlalchemy import pool, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import async_engine_from_config

from bot.store.database import install_sqlite_hooks
from bot.store.schema import Base, UTCDateTime

config = context.config
target_metadata = Base.metadata

# Any value: two bot processes upgrading one PostgreSQL database at once take turns on it.
_PG_MIGRATION_LOCK_KEY = 0x5C_6D_47_4D  # "SkGM"


def _url() -> str:
    url = config.attributes.get("sqlalchemy.url") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError(
            "No database URL for Alembic: set config.attributes['sqlalchemy.url'] (see bot.store.database.alembic_config)"
        )
    return str(url)


def _render_item(type_: str, obj: Any, autogen_context: Any) -> str | bool:
    """Autogenerate writes the project's column types as plain SQLAlchemy types."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _configure_kwargs(dialect_name: str) -> dict[str, Any]:
    sqlite = dialect_name == "sqlite"
    return {
        "target_metadata": target_metadata,
        "compare_type": True,
        "render_as_batch": sqlite,
        "render_item": _render_item,
        # With BEGIN emitted by us (bot.store.database.install_sqlite_hooks) SQLite DDL is
        # transactional too: a failed upgrade leaves the file as it was.
        "transactional_ddl": True,
    }


def run_migrations_offline() -> None:
    """``--sql`` mode: print the SQL instead of running it."""
    url = _url()
    context.configure(
        url=url,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        **_configure_kwargs(url.split(":", 1)[0].split("+", 1)[0]),
    )
    with context.begin_transaction():
        context.run_migrations()


def do_run_migrations(connection: Connection) -> None:
    dialect = connection.dialect.name
    context.configure(connection=connection, **_configure_kwargs(dialect))
    with context.begin_transaction():
        if dialect == "postgresql":
            # Held until the migration transaction ends. (SQLite: BEGIN IMMEDIATE already
            # serialises concurrent upgrades.)
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK_KEY})
        context.run_migrations()
        if dialect == "sqlite":
            # Foreign keys are off while migrating (batch mode rebuilds tables); check that
            # nothing was left dangling before committing.
            problems = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if problems:
                raise RuntimeError(f"foreign key violations after migrating: {problems[:10]}")


async def run_async_migrations() -> None:
    connectable = async_engine_from_config({"sqlalchemy.url": _url()}, prefix="sqlalchemy.", poolclass=pool.NullPool)
    if connectable.dialect.name == "sqlite":
        install_sqlite_hooks(connectable.sync_engine, foreign_keys=False)
    try:
        async with connectable.connect() as connection:
            await connection.run_sync(do_run_migrations)
    finally:
        await connectable.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        do_run_migrations(connection)
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(run_async_migrations())
        return
    # Called synchronously from inside a running event loop: give asyncio.run a thread of its
    # own (this blocks the calling loop until done; prefer bot.store.database.upgrade()).
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as executor:
        executor.submit(asyncio.run, run_async_migrations()).result()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
