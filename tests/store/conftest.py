"""The persistence tests' own fixtures; the databases themselves come from tests/conftest.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store.database import Database, sqlite_url


@pytest.fixture
def sqlite_db_url(tmp_path: Path) -> str:
    """A fresh SQLite file (its folder does not exist yet: the code must create it)."""
    return sqlite_url(tmp_path / "data" / "skirmish-gm.sqlite3")


@pytest.fixture
def db(database: Database) -> Database:
    """The persistence tests' name for the shared migrated database (tests/conftest.py)."""
    return database
