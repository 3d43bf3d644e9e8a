"""A command's transaction: SQLAlchemy Core statements, defined once, returning plain tuples.

The commands players send most read a few rows and write a few; through the ORM's session, its unit
of work and the async adapter each statement cost a hundred times what SQLite spent on it
(``python -m bench.latency``). So the store runs Core statements only, on one of two transactions
behind the same :class:`Tx` interface:

* :class:`SqliteTx` compiles each statement once and runs it straight on the ``sqlite3`` connection
  of :class:`bot.store.database.Database`'s one SQLite connection, in a ``BEGIN IMMEDIATE``
  transaction of its own.
* :class:`ConnectionTx` runs them on a SQLAlchemy connection (PostgreSQL).

Types convert as SQLAlchemy would (JSON, booleans, UTC datetimes), by the columns' own bind and
result processors. An INSERT is given every column it writes: Python-side column defaults are not
applied. No statement may use an expanding (IN-list) parameter: it is compiled once.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql import ClauseElement, Executable
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.dml import Insert
from sqlalchemy.sql.sqltypes import JSON

from bot.store.column_values import DECODED, ENCODED

__all__ = ["ConnectionTx", "SqliteTx", "Tx"]

log = logging.getLogger(__name__)

Params = Mapping[str, Any]
_REQUIRED = object()


class Tx:
    """One command's transaction: plain statements in, plain tuples out."""

    def __init__(self) -> None:
        self._on_commit: list[Callable[[], None]] = []

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once this transaction has committed (never after a rollback): for work
        that may be left undone, such as keeping a cache."""
        self._on_commit.append(callback)

    def committed(self) -> None:
        """The transaction committed: the callbacks, each once (a failing one is logged, not raised:
        what was committed stands)."""
        callbacks, self._on_commit = self._on_commit, []
        for callback in callbacks:
            try:
                callback()
            except Exception:
                log.exception("a callback after a commit failed")

    async def rows(self, statement: Executable, params: Params | None = None) -> list[tuple[Any, ...]]:
        """The rows a statement returns (a SELECT, or a write with RETURNING)."""
        raise NotImplementedError

    async def run(self, statement: Executable, params: Params | Sequence[Params]) -> int:
        """Run a write; a list of parameter sets runs it once for each. The rows it changed."""
        raise NotImplementedError

    async def first(self, statement: Executable, params: Params | None = None) -> tuple[Any, ...] | None:
        found = await self.rows(statement, params)
        return found[0] if found else None

    async def scalar(self, statement: Executable, params: Params | None = None) -> Any:
        row = await self.first(statement, params)
        return None if row is None else row[0]


class ConnectionTx(Tx):
    """Plain statements on a SQLAlchemy connection in a transaction (PostgreSQL)."""

    def __init__(self, connection: AsyncConnection) -> None:
        super().__init__()
        self._connection = connection

    async def rows(self, statement: Executable, params: Params | None = None) -> list[tuple[Any, ...]]:
        result = await self._connection.execute(statement, dict(params or {}))
        return [tuple(row) for row in result]

    async def run(self, statement: Executable, params: Params | Sequence[Params]) -> int:
        if isinstance(params, Mapping):
            result = await self._connection.execute(statement, dict(params))
        elif params:
            result = await self._connection.execute(statement, [dict(p) for p in params])
        else:
            return 0
        return int(result.rowcount)


class Compiled:
    """A statement as SQLite text, with how to turn named parameters into positional ones and
    result columns into Python values."""

    def __init__(self, statement: Executable, dialect: Dialect, keys: tuple[str, ...]) -> None:
        assert isinstance(statement, ClauseElement)
        columns = list(keys) if isinstance(statement, Insert) else None
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect, column_keys=columns))
        self.sql = str(compiled)
        self.binds: list[tuple[str, Any, Callable[[Any], Any] | None]] = []
        for name in compiled.positiontup or ():
            bind = compiled.binds[name]
            constant = _REQUIRED if (bind.required or bind.callable is not None) else bind.value
            if name in keys:
                constant = _REQUIRED
            process: Callable[[Any], Any] | None = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None and isinstance(bind.type, JSON):
                process = ENCODED.wrap(process)
            self.binds.append((name, constant, process))
        self.results: list[tuple[int, Callable[[Any], Any]]] = []
        for index, column in enumerate(
            getattr(statement, "exported_columns", ())
        ):  # a SELECT's, or a write's RETURNING
            process = column.type.dialect_impl(dialect).result_processor(dialect, None)
            if process is not None:
                self.results.append((index, DECODED.wrap(process) if isinstance(column.type, JSON) else process))

    def parameters(self, params: Params) -> list[Any]:
        values = []
        for name, constant, process in self.binds:
            value = params[name] if constant is _REQUIRED else constant
            values.append(process(value) if process is not None else value)
        return values

    def convert(self, rows: list[Any]) -> list[tuple[Any, ...]]:
        if not self.results:
            return [tuple(row) for row in rows]
        converted = []
        for row in rows:
            values = list(row)
            for index, process in self.results:
                values[index] = process(values[index])
            converted.append(tuple(values))
        return converted


class SqliteTx(Tx):
    """Plain statements straight on the ``sqlite3`` connection, in a transaction already begun."""

    def __init__(self, raw: sqlite3.Connection, connection: AsyncConnection, cache: dict[Any, Compiled]) -> None:
        super().__init__()
        self._raw = raw
        self._connection = connection
        self._dialect = connection.dialect
        self._cache = cache

    def _compiled(self, statement: Executable, keys: tuple[str, ...]) -> Compiled:
        key = (statement, keys) if isinstance(statement, Insert) else statement
        compiled = self._cache.get(key)
        if compiled is None:
            compiled = self._cache[key] = Compiled(statement, self._dialect, keys)
        return compiled

    async def rows(self, statement: Executable, params: Params | None = None) -> list[tuple[Any, ...]]:
        params = params or {}
        compiled = self._compiled(statement, tuple(params))
        return compiled.convert(self._raw.execute(compiled.sql, compiled.parameters(params)).fetchall())

    async def run(self, statement: Executable, params: Params | Sequence[Params]) -> int:
        if isinstance(params, Mapping):
            compiled = self._compiled(statement, tuple(params))
            return self._raw.execute(compiled.sql, compiled.parameters(params)).rowcount
        if not params:
            return 0
        compiled = self._compiled(statement, tuple(params[0]))
        return self._raw.executemany(compiled.sql, [compiled.parameters(p) for p in params]).rowcount

    async def commit(self) -> None:
        if self._raw.in_transaction:
            self._raw.execute("COMMIT")

    async def rollback(self) -> None:
        if self._raw.in_transaction:
            self._raw.execute("ROLLBACK")
