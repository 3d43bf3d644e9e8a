"""The lookups every command makes reach their rows through an index (SQLite's query plans), so a
database with thousands of campaigns in one guild answers as fast as one with a few."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.dialects import sqlite
from sqlalchemy.sql import Executable

from bot.app import base, games, pace, rolls, rows
from bot.store import database
from bot.store.database import Database, sqlite_url
from bot.store.schema import written

HOT = {
    "the channel's campaign and the caller's membership": (base.CAMPAIGN_AND_MEMBER, ["campaigns", "members"]),
    "the channel's campaign": (base.CAMPAIGN_HERE, ["campaigns"]),
    "the campaign's game, locked": (database._LOCK_ACTIVE_GAME, ["games"]),
    "the campaign's game": (base.ACTIVE_GAME, ["games"]),
    "an action's context": (games.ACTION_CONTEXT, ["actions", "decisions", "actions"]),
    "a roll's context": (rolls.ROLL_CONTEXT, ["actions", "actions"]),
    "the channel's campaign and the caller's membership, plainly": (
        rows.CAMPAIGN_AND_MEMBER_ROW,
        ["campaigns", "members"],
    ),
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


#: Statements that look for a game in play or a running deadline, and the partial index whose own
#: condition they carry (``bot.store.schema.written``): a bound ``status = ?`` there made SQLite plan the
#: statement afresh on every run, and the plan could not use that index.
BY_PARTIAL_INDEX = {
    "the campaign's game": (base.ACTIVE_GAME, "uq_games_active_campaign"),
    "the campaign's game, locked": (database._LOCK_ACTIVE_GAME, "uq_games_active_campaign"),
    "the campaign's game, plainly": (rows.ACTIVE_GAME_ROW, "uq_games_active_campaign"),
    "the campaign's game, plainly and locked": (rows.LOCKED_GAME_ROW, "uq_games_active_campaign"),
    "the games the pace poll brings in step": (pace.GAMES_TO_SYNC, "uq_games_active_campaign"),
    "their running deadlines": (pace.GAMES_TO_SYNC, "uq_deadlines_current_game"),
}


@pytest.mark.parametrize("name", list(BY_PARTIAL_INDEX))
async def test_a_lookup_for_what_is_in_play_uses_the_partial_index_that_says_so(migrated: Path, name: str) -> None:
    statement, index = BY_PARTIAL_INDEX[name]
    sql = str(statement.compile(dialect=sqlite.dialect()))
    with sqlite3.connect(migrated) as connection:
        plan = [row[-1] for row in connection.execute("EXPLAIN QUERY PLAN " + sql, [1] * sql.count("?"))]
    assert any(f"USING INDEX {index}" in line for line in plan), plan


def test_only_a_constant_is_written_into_sql() -> None:
    assert str(written("active").compile(dialect=sqlite.dialect())) == "'active'"
    with pytest.raises(ValueError):
        written("x' OR '1'='1")
