"""The lookups every command makes reach their rows through an index (SQLite's query plans), so a
database with thousands of campaigns in one guild answers as fast as one with a few."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.dialects import sqlite
from sqlalchemy.sql import Executable

from bot.store import answers, campaigns, deadlines, decisions, figures, games, log, play
from bot.store.database import Database, sqlite_url
from bot.store.schema import written

#: The store's statements behind the commands players send most (one statement each since the
#: ORM's lookups and their plain twins became one store).
HOT = {
    "the channel's campaign and the caller's membership": (play.CAMPAIGN_AND_MEMBER, ["campaigns", "members"]),
    "the channel's campaign": (campaigns.CAMPAIGN_HERE, ["campaigns"]),
    "the campaign's game, locked": (games.IN_PROGRESS_LOCKED, ["games"]),
    "the campaign's game": (games.IN_PROGRESS, ["games"]),
    "an action's context": (play.ACTION_CONTEXT, ["actions", "decisions", "actions"]),
    "a roll's context": (log.ROLL_CONTEXT, ["actions", "actions"]),
    "the campaign's last game": (games.LATEST, ["games"]),
    "the open decision": (decisions.FIRST_OPEN_IN_GAME, ["decisions"]),
    "the open decisions of a game": (decisions.OPEN_IN_GAME, ["decisions"]),
    "a side's players": (campaigns.SIDE_USER_IDS, ["members"]),
    "the game master": (campaigns.GM_USER_IDS, ["members"]),
    "the roster's names": (figures.NAMES, ["figures"]),
    "an action's answer noted as given": (answers.ANSWERED, ["actions"]),
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
    "the campaign's game": (games.IN_PROGRESS, "uq_games_active_campaign"),
    "the campaign's game, locked": (games.IN_PROGRESS_LOCKED, "uq_games_active_campaign"),
    "the games the pace poll brings in step": (deadlines.GAMES_TO_SYNC, "uq_games_active_campaign"),
    "their running deadlines": (deadlines.GAMES_TO_SYNC, "uq_deadlines_current_game"),
    "a game's running deadline": (deadlines.CURRENT, "uq_deadlines_current_game"),
    "the answers still owed, on start": (answers.OWED, "ix_actions_answer_owed"),
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
