"""Real databases for the tests: a SQLite file, and a throw-away PostgreSQL database.

``db_url`` runs a test once per database. PostgreSQL: the server at
``postgresql://postgres@127.0.0.1:5432/postgres`` (``SKIRMISH_TEST_PG`` overrides it) gets one
database named ``skirmish_test_<pid>_<random>`` for the session, dropped and created afresh before
every test that uses it (so no test trusts what another one, or an earlier run, left) and dropped
at the end. If the server cannot be reached the PostgreSQL half is skipped, with the reason.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from hypothesis import HealthCheck, settings
from sqlalchemy.engine import make_url

from bot.app.service import App
from bot.dice import ForcedDice
from bot.store import Store
from bot.store.database import Database, sqlite_url
from tests.named_app import NamedApp

#: Hypothesis checks what the code does, not how fast: no deadline per example (its default,
#: 200 ms, fails an example that a loaded machine merely delayed) and no complaint when drawing the
#: examples is slow. A test's own ``@settings`` overrides only the settings it names.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

DEFAULT_PG_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"


def run_in_thread(fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
    """Run a coroutine function to completion on a private loop in a worker thread.

    Sync fixtures use it so they never touch the event loop pytest-asyncio gives the tests.
    """
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(fn(*args))).result()


async def _pg_execute(dsn: str, *statements: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(dsn, timeout=5)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


@dataclass(frozen=True)
class PgServer:
    admin_dsn: str  # plain libpq-style DSN of the maintenance database, for asyncpg
    database: str  # this session's scratch database
    url: str  # SQLAlchemy URL of the scratch database (postgresql+asyncpg)

    def recreate(self) -> None:
        run_in_thread(
            _pg_execute,
            self.admin_dsn,
            f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)',
            f'CREATE DATABASE "{self.database}"',
        )

    def drop(self) -> None:
        run_in_thread(_pg_execute, self.admin_dsn, f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    server = make_url(os.environ.get("SKIRMISH_TEST_PG") or DEFAULT_PG_SERVER)
    admin_dsn = server.set(drivername="postgresql").render_as_string(hide_password=False)
    where = f"{server.host or 'localhost'}:{server.port or 5432}"
    try:
        run_in_thread(_pg_execute, admin_dsn, "SELECT 1")
    except Exception as exc:
        pytest.skip(f"PostgreSQL not reachable at {where}: {type(exc).__name__}: {exc}")
    database = f"skirmish_test_{os.getpid()}_{secrets.token_hex(4)}"
    url = server.set(drivername="postgresql+asyncpg", database=database).render_as_string(hide_password=False)
    pg = PgServer(admin_dsn=admin_dsn, database=database, url=url)
    try:
        yield pg
    finally:
        pg.drop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database, once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "data" / "skirmish-gm.sqlite3")
        return
    pg: PgServer = request.getfixturevalue("pg_server")
    pg.recreate()
    yield pg.url


@pytest_asyncio.fixture
async def database(db_url: str) -> AsyncIterator[Database]:
    """A :class:`Database` migrated to head, once on SQLite and once on PostgreSQL."""
    db = await Database.open(db_url)
    try:
        yield db
    finally:
        await db.close()


@pytest.fixture
def forced() -> ForcedDice:
    """Dice the test forces; running out is an error, so every die a test relies on is named."""
    return ForcedDice()


@pytest_asyncio.fixture
async def app(database: Database, forced: ForcedDice) -> App:
    return NamedApp(Store(database), lambda: forced)
