"""Opening the database, one transaction per command, migrations, and the game's lock.

Locking, in short:

* SQLite: every transaction starts with ``BEGIN IMMEDIATE``, which takes the database's write lock
  before the first read. Two commands on one file (in one process or in two) therefore run one
  after the other, and a read-modify-write can never lose an update. ``busy_timeout`` makes the
  second one wait (up to 30 s) instead of failing; within one :class:`Database` an asyncio lock
  queues the transactions fairly, so they do not poll the file lock against each other. Since
  they run one at a time anyway, they all run on one connection, kept open (see
  :meth:`Database._queued_connection`).
* PostgreSQL: plain READ COMMITTED transactions; a command that changes a game reads it with a
  statement that says ``with_for_update()`` (``bot.store.play.GAME_IN_PROGRESS_LOCKED``), which
  waits for any other transaction holding the row and returns its committed values, so two
  commands on one game are serialised while commands on other games run in parallel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
import weakref
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    create_async_engine,
)

from bot.store import sqlite_driver
from bot.store.tx import Compiled, ConnectionTx, SqliteTx, Tx

if TYPE_CHECKING:
    from alembic.config import Config

__all__ = [
    "SQLITE_BUSY_TIMEOUT_MS",
    "Database",
    "alembic_config",
    "downgrade",
    "install_sqlite_hooks",
    "make_engine",
    "sqlite_url",
    "upgrade",
]

log = logging.getLogger(__name__)

SQLITE_BUSY_TIMEOUT_MS = 30_000
#: Transactions between two checkpoints of a SQLite file's write-ahead log (see Database).
CHECKPOINT_EVERY = 256


# --------------------------------------------------------------------------------------------
# URLs and engines


def sqlite_url(path: Path | str) -> str:
    """``sqlite+aiosqlite:////abs/path`` for a database file, creating its parent folders."""
    path = Path(path).expanduser().resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    return URL.create("sqlite+aiosqlite", database=str(path)).render_as_string(hide_password=False)


def _is_sqlite(url: str | URL) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def _is_sqlite_memory(url: str | URL) -> bool:
    u = make_url(url)
    if u.get_backend_name() != "sqlite":
        return False
    database = u.database or ""
    return database in ("", ":memory:") or (database.startswith("file:") and "mode=memory" in database)


def _ensure_sqlite_folder(url: str | URL) -> None:
    u = make_url(url)
    if not _is_sqlite(u) or _is_sqlite_memory(u):
        return
    database = u.database or ""
    if database.startswith("file:"):
        return
    Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)


def install_sqlite_hooks(
    sync_engine: Engine, *, foreign_keys: bool = True, busy_timeout: bool = True, autocheckpoint: bool = True
) -> None:
    """The SQLite connection set-up: pragmas on connect, ``BEGIN IMMEDIATE`` on every begin.

    This is SQLAlchemy's documented recipe for the pysqlite/aiosqlite drivers: switch off the
    driver's own (deferred, DML-only) transaction handling by setting ``isolation_level = None``
    and emit the BEGIN ourselves. ``foreign_keys=False`` is for migrations only: batch mode
    rebuilds tables by copy-drop-rename, and a DROP with foreign keys on would cascade deletes.
    ``busy_timeout=False`` leaves the wait for another process's lock to the driver
    (:mod:`bot.store.sqlite_driver` waits off the event loop's thread); ``autocheckpoint=False``
    leaves copying the WAL back into the database to :class:`Database`, also off that thread.
    """

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            if busy_timeout:
                cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            if not autocheckpoint:
                cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        finally:
            cursor.close()

    @event.listens_for(sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        if not _raw_sqlite(conn.connection.driver_connection).in_transaction:  # else: joining a Tx's (bot.store.tx)
            conn.exec_driver_sql("BEGIN IMMEDIATE")


def _raw_sqlite(driver_connection: Any) -> sqlite3.Connection:
    """The ``sqlite3`` connection under a driver connection (aiosqlite's, or pysqlite's itself)."""
    return getattr(driver_connection, "_conn", driver_connection)


def make_engine(url: str, *, foreign_keys: bool = True, **kwargs: Any) -> AsyncEngine:
    """An :class:`AsyncEngine` set up for this project (SQLite hooks, PostgreSQL pre-ping)."""
    if _is_sqlite(url):
        _ensure_sqlite_folder(url)
        # Every transaction ends in an explicit commit or rollback, so the pool's own rollback
        # when a connection is returned is a wasted round trip to the driver's thread.
        kwargs.setdefault("pool_reset_on_return", None)
        kwargs["connect_args"] = {
            "async_creator_fn": sqlite_driver.connect,
            "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000,
            **kwargs.get("connect_args", {}),
        }
        engine = create_async_engine(url, **kwargs)
        install_sqlite_hooks(
            engine.sync_engine, foreign_keys=foreign_keys, busy_timeout=False, autocheckpoint=_is_sqlite_memory(url)
        )
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    return create_async_engine(url, **kwargs)


# --------------------------------------------------------------------------------------------
# Migrations (Alembic, configured in code: there is no alembic.ini)


def alembic_config(url: str, *, connection: Connection | None = None) -> Config:
    """An Alembic :class:`Config` for ``url``, pointing at the ``migrations`` package.

    Use it for anything the helpers below do not cover, for example a new revision::

        command.revision(alembic_config(url), "add figure notes", autogenerate=True)
    """
    from alembic.config import Config

    import migrations

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(migrations.__file__).resolve().parent))
    cfg.set_main_option("path_separator", "os")
    cfg.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    # configparser interpolates '%': escape it in the option, and pass the raw URL as well.
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    cfg.attributes["sqlalchemy.url"] = url
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


async def _alembic(name: str, url: str, revision: str) -> None:
    from alembic import command

    _ensure_sqlite_folder(url)
    # Alembic is synchronous and env.py runs its own event loop with asyncio.run(), so it goes
    # to a worker thread: the caller's loop keeps running meanwhile.
    await asyncio.to_thread(getattr(command, name), alembic_config(url), revision)


async def upgrade(url: str, revision: str = "head") -> None:
    """``alembic upgrade <revision>`` against ``url``."""
    await _alembic("upgrade", url, revision)


async def downgrade(url: str, revision: str = "base") -> None:
    """``alembic downgrade <revision>`` against ``url``."""
    await _alembic("downgrade", url, revision)


# --------------------------------------------------------------------------------------------
# The database


class Database:
    """One engine, and this process's turns on it: ``async with db.plain() as tx:`` per command."""

    url: str
    engine: AsyncEngine

    def __init__(self, url: str, engine: AsyncEngine) -> None:
        self.url = url
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        # SQLite allows one writer: queue this process's transactions here, fairly, instead of
        # letting them poll the file lock. Other processes still wait on busy_timeout.
        self._queue: asyncio.Lock | None = asyncio.Lock() if self.is_sqlite else None
        self._connection: AsyncConnection | None = None
        self._driver: Any = None
        self._compiled: dict[Any, Compiled] = {}
        self._tasks_inside: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet()
        # SQLite's own checkpoint runs inside a commit, on the event loop's thread, and syncs the
        # file to disk: a stall for every command queued behind it. So the connections turn it off
        # (make_engine) and every CHECKPOINT_EVERY transactions one runs here, on a thread.
        self._wal_file = None if not self.is_sqlite or _is_sqlite_memory(url) else make_url(url).database
        self._since_checkpoint = 0
        self._checkpoint: asyncio.Future[None] | None = None
        self._checkpointer: ThreadPoolExecutor | None = None

    @classmethod
    async def open(cls, url: str, *, upgrade: bool = True, **engine_kwargs: Any) -> Database:
        """Create the engine; first bring the schema to the newest revision if ``upgrade``."""
        if _is_sqlite_memory(url):
            # A private in-memory database lives in the engine's one connection: migrate there.
            engine = make_engine(url, **engine_kwargs)
            if upgrade:
                await _upgrade_on_engine(engine, url)
            return cls(url, engine)
        if upgrade:
            await _alembic("upgrade", url, "head")
        return cls(url, make_engine(url, **engine_kwargs))

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[AsyncConnection]:
        """A SQLAlchemy connection in this process's turn on the database, for what is not a
        command: SQLite's one queued connection, or one from PostgreSQL's pool. The caller begins
        and ends its own transaction on it (an ORM session bound to it, in the tests)."""
        async with self._one_per_task():
            if self._queue is None:
                async with self.engine.connect() as connection:
                    yield connection
                return
            async with self._queue:
                connection = await self._queued_connection()
                try:
                    yield connection
                finally:
                    await self._after_queued(connection)

    @asynccontextmanager
    async def plain(self) -> AsyncIterator[Tx]:
        """One command, one transaction of plain statements (:mod:`bot.store.tx`): on SQLite
        straight on the driver, on PostgreSQL on a connection of the engine's pool."""
        async with self._one_per_task():
            if self._queue is None:
                async with self.engine.begin() as connection:
                    on_connection = ConnectionTx(connection)
                    yield on_connection
                on_connection.committed()
                return
            async with self._queue:
                connection = await self._queued_connection()
                raw = _raw_sqlite(self._driver)
                try:
                    await self._driver.call(_begin_immediate)
                    tx = SqliteTx(raw, connection, self._compiled)
                    try:
                        yield tx
                    except BaseException:
                        await tx.rollback()
                        raise
                    await tx.commit()
                    tx.committed()
                finally:
                    if raw.in_transaction:  # a commit or rollback that failed half-way
                        raw.rollback()
                    await self._after_queued(connection)

    @asynccontextmanager
    async def _one_per_task(self) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if task is not None and task in self._tasks_inside:
            raise RuntimeError("a transaction is already open in this task; one command is one transaction")
        if task is not None:
            self._tasks_inside.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._tasks_inside.discard(task)
            self._after_transaction()

    async def _queued_connection(self) -> AsyncConnection:
        """SQLite: the one connection this process's transactions take turns on.

        Checking a connection out of the pool and back in cost several times what a whole command's
        statements cost (``python -m bench.latency``); queued transactions never need two.
        """
        if self._connection is None or self._connection.closed or self._connection.invalidated:
            self._connection = await self.engine.connect()
            self._driver = (await self._connection.get_raw_connection()).driver_connection
        return self._connection

    async def _after_queued(self, connection: AsyncConnection) -> None:
        """A transaction that could not even begin or end cleanly leaves no doubt behind: the
        connection is closed (rolling back whatever was left) and the next one opens afresh."""
        if connection.in_transaction() or connection.invalidated:
            self._connection = None
            try:
                await connection.close()
            except Exception:
                log.warning("closing a SQLite connection left in a transaction failed", exc_info=True)

    def _after_transaction(self) -> None:
        if self._wal_file is None:
            return
        self._since_checkpoint += 1
        if self._since_checkpoint >= CHECKPOINT_EVERY and (self._checkpoint is None or self._checkpoint.done()):
            self._since_checkpoint = 0
            if self._checkpointer is None:
                self._checkpointer = ThreadPoolExecutor(1, "sqlite-checkpoint", initializer=_background_priority)
            self._checkpoint = asyncio.get_running_loop().run_in_executor(
                self._checkpointer, _checkpoint, self._wal_file
            )

    async def close(self) -> None:
        if self._connection is not None:
            connection, self._connection = self._connection, None
            await connection.close()
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        if self._checkpointer is not None:
            self._checkpointer.shutdown(wait=False)
            self._checkpointer = None
        await self.engine.dispose()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"<Database {make_url(self.url).render_as_string(hide_password=True)}>"


def _begin_immediate(connection: sqlite3.Connection) -> None:
    connection.execute("BEGIN IMMEDIATE")


def _background_priority() -> None:
    """The calling thread at the lowest CPU priority (Linux gives each thread its own nice value).

    A checkpoint is upkeep that no player waits for: on a busy machine it should take the CPU time
    that commands leave over, not share a core with the event loop. A PASSIVE checkpoint never
    holds a lock a writer waits for, so running it slowly delays no command.
    """
    with contextlib.suppress(AttributeError, OSError):  # not Linux, or not allowed: the usual priority
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


def _checkpoint(path: str) -> None:
    """Copy the write-ahead log back into the database file, without waiting for or blocking
    anyone (a PASSIVE checkpoint: what readers still use stays for the next one)."""
    connection = sqlite3.connect(path, timeout=SQLITE_BUSY_TIMEOUT_MS / 1000)
    try:
        connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
    except sqlite3.Error:
        log.warning("the WAL checkpoint of %s failed; the next one will try again", path, exc_info=True)
    finally:
        connection.close()


async def _upgrade_on_engine(engine: AsyncEngine, url: str) -> None:
    from alembic import command

    async with engine.begin() as conn:
        await conn.run_sync(lambda sync_conn: command.upgrade(alembic_config(url, connection=sync_conn), "head"))
