"""The lookups every command makes reach their rows through an index (SQLite's query plans), so a
database with thousands of campaigns in one guild answers as fast as one with a few."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.dialects import sqlite
from sqlalchemy.sql import Executable

from bot.app import base, games, rolls, rows
from bot.db import database
from bot.db.database import Database, sqlite_url

HOT = {
    "the channel's campaign and the caller's membership": (base.CAMPAIGN_AND_MEMBER, ["campaigns", "members"]),
    "the channel's campaign": (base.CAMPAIGN_HERE, ["campaigns"]),
    "the campaign's game, locked": (database._LOCK_ACTIVE_GAME, ["games"]),
    "the campaign's game": (base.ACTIVE_GAME, ["games"]),
    "an action's context": (games.ACTION_CONTEXT, ["actions", "decisions", "actions"]),
    "a roll's context": (rolls.ROLL_CONTEXT, ["actions", "actions"]),
    "the channel's campaign and the caller's membership, plainly": (rows.CAMPAIGN_AND_MEMBER_ROW, ["campaigns", "members"]),
    "the channel's campaign, plainly": (rows.CAMPAIGN_ROW, ["campaigns"]),
    "the campaign's game, plainly": (rows.ACTIVE_GAME_ROW, ["games"]),
    "the campaign's game, plainly and locked": (rows.LOCKED_GAME_ROW, ["games"]),
    "the campaign's last game": (rows.LATEST_GAME_ROW, ["games"]),
    "the open decision": (rows.OPEN_DECISION_ROW, ["decisions"]),
    "a side's players": (rows.SIDE_USER_IDS, ["members"]),
    "the game master": (rows.GM_USER_IDS, ["members"]),
    "the roster's names": (rolls.ROSTER_NAMES, ["figures"]),
}


@pytest.fixture
async def migrated(tmp_path: Path) -> Path:
    path = tmp_path / "plans.sqlite3"
    db = await Database.open(sqlite_url(path))
    await db.close()
    return path


@pytest.mark.parametrize("name", list(HOT))
async def test_a_hot_lookup_searches_an_index_and_scans_no_table(migrated: Path, name: str) -> None:
    statement, tables = HOT[name]
    assert isinstance(statement, Executable)
    sql = str(statement.compile(dialect=sqlite.dialect()))
    with sqlite3.connect(migrated) as connection:
        plan = [row[-1] for row in connection.execute("EXPLAIN QUERY PLAN " + sql, [1] * sql.count("?"))]
    searches = [line for line in plan if line.startswith("SEARCH ")]
    assert [line.split()[1] for line in searches] == tables, plan
    assert all("USING" in line and "INDEX" in line for line in searches), plan
    assert not any(line.startswith("SCAN ") and "CONSTANT ROW" not in line for line in plan), plan
    if "campaigns" in tables:
        assert any("channel_id=?" in line for line in searches), plan
