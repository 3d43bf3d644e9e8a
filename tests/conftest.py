"""Fixtures for the application and front-end tests: a real SQLite file, migrated to head."""
from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.app.service import App
from bot.db.database import Database, sqlite_url
from bot.dice import ForcedDice


@pytest_asyncio.fixture
async def database(tmp_path: Path) -> AsyncIterator[Database]:
    db = await Database.open(sqlite_url(tmp_path / "skirmish.sqlite3"))
    yield db
    await db.close()


@pytest_asyncio.fixture
def forced() -> ForcedDice:
    """Dice the test forces; running out is an error, so every die a test relies on is named."""
    return ForcedDice()


@pytest_asyncio.fixture
async def app(database: Database, forced: ForcedDice) -> App:
    return App(database, lambda: forced)
