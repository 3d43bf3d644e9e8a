"""The persistence tests' own fixtures; the databases themselves come from tests/conftest.py."""
from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.db.database import Database, sqlite_url


@pytest.fixture
def sqlite_db_url(tmp_path: Path) -> str:
    """A fresh SQLite file (its folder does not exist yet: the code must create it)."""
    return sqlite_url(tmp_path / "data" / "skirmish-gm.sqlite3")


@pytest_asyncio.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    """An open :class:`Database` migrated to head, on each database."""
    database = await Database.open(db_url)
    try:
        yield database
    finally:
        await database.close()
