"""aiosqlite connections that run SQLite on the event loop's thread, and wait for locks off it.

aiosqlite runs every SQLite call in a thread of its own, and SQLAlchemy's adapter makes four
such calls per statement (open a cursor, execute, fetch, close). Each is a round trip that hands
the GIL between threads and wakes the event loop; under load that, not SQLite, was most of the
bot's time (``python -m bench.latency``). Yet a statement on a local WAL database takes
microseconds, and the only thing worth a thread is *waiting*: for another process that holds
the database's write lock.

So these connections run each statement at once, on the calling thread, with SQLite's busy
timeout at zero. When SQLite answers "busy" (another process holds the lock; within this process
:class:`bot.store.database.Database` already queues writers), the same call is retried on
aiosqlite's thread with the real timeout, and the event loop goes on meanwhile. A busy statement
has done nothing, so retrying it is safe.

SQLAlchemy's aiosqlite dialect takes this factory as the ``async_creator_fn`` connect argument
(see :func:`bot.store.database.make_engine`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Generator, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

__all__ = ["InlineConnection", "InlineCursor", "connect"]

T = TypeVar("T")
_Result = tuple[Any, int, "int | None", list[Any]]


def _execute(connection: sqlite3.Connection, sql: str, parameters: Any, many: bool = False) -> _Result:
    cursor = connection.cursor()
    try:
        (cursor.executemany if many else cursor.execute)(sql, parameters)
        rows = cursor.fetchall() if cursor.description else []
        return cursor.description, cursor.rowcount, cursor.lastrowid, rows
    finally:
        cursor.close()


def _is_busy(error: sqlite3.OperationalError) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


class InlineCursor:
    """The part of :class:`aiosqlite.Cursor` SQLAlchemy uses; rows are fetched with the execute."""

    arraysize = 1

    def __init__(self, connection: InlineConnection) -> None:
        self._connection = connection
        self.description: Any = None
        self.rowcount = -1
        self.lastrowid: int | None = None
        self._rows: list[Any] = []

    async def __aenter__(self) -> InlineCursor:
        return self

    def __await__(self) -> Generator[Any, None, InlineCursor]:
        """``await connection.cursor()``, as SQLAlchemy 2.0's adapter asks for it (2.1 takes the
        cursor as it is): the cursor is ready at once."""
        return self._ready().__await__()

    async def _ready(self) -> InlineCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def execute(self, sql: str, parameters: Any = ()) -> InlineCursor:
        self._keep(await self._connection.call(_execute, sql, parameters))
        return self

    async def executemany(self, sql: str, parameters: Iterable[Any]) -> InlineCursor:
        self._keep(await self._connection.call(_execute, sql, list(parameters), True))
        return self

    def _keep(self, result: _Result) -> None:
        self.description, self.rowcount, self.lastrowid, self._rows = result

    async def fetchall(self) -> list[Any]:
        rows, self._rows = self._rows, []
        return rows

    async def fetchone(self) -> Any:
        return self._rows.pop(0) if self._rows else None

    async def fetchmany(self, size: int | None = None) -> Sequence[Any]:
        count = self.arraysize if size is None else size
        rows, self._rows = self._rows[:count], self._rows[count:]
        return rows

    async def close(self) -> None:
        self._rows = []


class InlineConnection(aiosqlite.Connection):
    """An aiosqlite connection whose statements, commits and rollbacks run inline (see the module)."""

    def __init__(self, connector: Callable[[], sqlite3.Connection], busy_timeout_s: float) -> None:
        super().__init__(connector, iter_chunk_size=64)
        self.busy_timeout_ms = int(busy_timeout_s * 1000)

    def cursor(self) -> InlineCursor:  # type: ignore[override]
        return InlineCursor(self)

    async def commit(self) -> None:
        await self.call(lambda connection: connection.commit())

    async def rollback(self) -> None:
        await self.call(lambda connection: connection.rollback())

    async def call(self, call: Callable[..., T], *args: Any) -> T:
        """``call(sqlite3_connection, *args)`` now, on this thread; when the database is busy,
        again on aiosqlite's thread, waiting for the lock meanwhile."""
        connection = self._conn
        try:
            return call(connection, *args)
        except sqlite3.OperationalError as error:
            if not _is_busy(error):
                raise
        return await self._execute(self._waiting, call, connection, *args)

    def _waiting(self, call: Callable[..., T], connection: sqlite3.Connection, *args: Any) -> T:
        """On aiosqlite's thread: the call again, this time waiting for the lock."""
        connection.execute(f"PRAGMA busy_timeout={self.busy_timeout_ms}")
        try:
            return call(connection, *args)
        finally:
            connection.execute("PRAGMA busy_timeout=0")


def connect(database: str | Path, *, timeout: float = 5.0, **kwargs: Any) -> InlineConnection:
    """Like :func:`aiosqlite.connect`; ``timeout`` is how long a statement waits for another
    process's lock (on aiosqlite's thread, never on the caller's)."""
    location = str(database)
    kwargs["check_same_thread"] = False  # opened on aiosqlite's thread, used on the loop's

    def connector() -> sqlite3.Connection:
        return sqlite3.connect(location, timeout=0, **kwargs)

    connection = InlineConnection(connector, timeout)
    connection._thread.daemon = True
    return connection
