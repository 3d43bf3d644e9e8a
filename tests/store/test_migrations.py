"""The migrations against real SQLite and PostgreSQL databases: up, down, up, and no drift."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from bot.store.database import Database, alembic_config, downgrade, make_engine, upgrade
from bot.store.schema import Base

TABLES = {
    "campaigns",
    "members",
    "figures",
    "games",
    "actions",
    "events",
    "rolls",
    "decisions",
    "deadlines",
    "roll_streams",
    "free_rolls",
}

PARTIAL_UNIQUE_INDEXES = {
    # table: (index name, column, the WHERE clause as the database reports it, loosely)
    "campaigns": ("uq_campaigns_active_channel", "channel_id", "active"),
    "games": ("uq_games_active_campaign", "campaign_id", "status"),
}


async def _inspect(url: str, fn: Any) -> Any:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(lambda sync_conn: fn(inspect(sync_conn)))
    finally:
        await engine.dispose()


async def _tables(url: str) -> set[str]:
    return set(await _inspect(url, lambda insp: insp.get_table_names()))


async def _version(url: str) -> str | None:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(lambda sync_conn: MigrationContext.configure(sync_conn).get_current_revision())
    finally:
        await engine.dispose()


def _diff(conn: Connection) -> list[Any]:
    context = MigrationContext.configure(conn, opts={"compare_type": True})
    return compare_metadata(context, Base.metadata)


def test_the_models_declare_every_table() -> None:
    assert set(Base.metadata.tables) == TABLES


def test_one_linear_history_starting_at_0001() -> None:
    scripts = ScriptDirectory.from_config(alembic_config("sqlite+aiosqlite://"))
    assert len(scripts.get_heads()) == 1
    assert [rev.revision for rev in scripts.walk_revisions()][-1] == "0001"


@pytest.mark.asyncio
async def test_upgrade_creates_every_table(db_url: str) -> None:
    assert await _tables(db_url) == set()

    await upgrade(db_url)

    assert await _tables(db_url) == TABLES | {"alembic_version"}
    head = ScriptDirectory.from_config(alembic_config(db_url)).get_current_head()
    assert await _version(db_url) == head


@pytest.mark.asyncio
async def test_upgrade_creates_the_partial_unique_indexes(db_url: str) -> None:
    await upgrade(db_url)
    dialect = "sqlite" if db_url.startswith("sqlite") else "postgresql"

    for table, (name, column, where_word) in PARTIAL_UNIQUE_INDEXES.items():
        indexes = await _inspect(db_url, lambda insp, t=table: insp.get_indexes(t))
        (index,) = [ix for ix in indexes if ix["name"] == name]
        assert index["unique"]
        assert index["column_names"] == [column]
        where = str(index.get("dialect_options", {}).get(f"{dialect}_where", ""))
        assert where_word in where, (name, index)


@pytest.mark.asyncio
async def test_downgrade_to_base_leaves_only_the_version_table(db_url: str) -> None:
    await upgrade(db_url)

    await downgrade(db_url)

    assert await _tables(db_url) == {"alembic_version"}
    assert await _version(db_url) is None


@pytest.mark.asyncio
async def test_upgrade_again_after_downgrade(db_url: str) -> None:
    await upgrade(db_url)
    await downgrade(db_url)

    await upgrade(db_url)

    assert await _tables(db_url) == TABLES | {"alembic_version"}
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            assert await conn.run_sync(_diff) == []
    finally:
        await engine.dispose()


@pytest.mark.asyncio
async def test_upgrade_twice_is_a_no_op(db_url: str) -> None:
    await upgrade(db_url)
    await upgrade(db_url)
    assert await _tables(db_url) == TABLES | {"alembic_version"}


@pytest.mark.asyncio
async def test_models_match_migrations(db_url: str) -> None:
    await upgrade(db_url)

    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            diff = await conn.run_sync(_diff)
    finally:
        await engine.dispose()

    assert diff == []


@pytest.mark.asyncio
async def test_database_open_upgrades_and_can_skip_it(db_url: str) -> None:
    db = await Database.open(db_url, upgrade=False)
    await db.close()
    assert await _tables(db_url) == set()

    db = await Database.open(db_url)
    await db.close()
    assert await _tables(db_url) == TABLES | {"alembic_version"}


@pytest.mark.asyncio
async def test_alembic_command_called_synchronously_inside_a_running_loop(db_url: str) -> None:
    # env.py notices the running loop and gives asyncio.run a thread of its own.
    command.upgrade(alembic_config(db_url), "head")
    assert await _tables(db_url) == TABLES | {"alembic_version"}


@pytest.mark.asyncio
async def test_in_memory_sqlite_is_migrated_on_the_engine_connection() -> None:
    db = await Database.open("sqlite+aiosqlite:///:memory:")
    try:
        async with db.engine.connect() as conn:
            tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
    finally:
        await db.close()
    assert tables == TABLES | {"alembic_version"}


@pytest.mark.parametrize(
    "url, where",
    [
        ("sqlite+aiosqlite:///offline.db", "WHERE active"),
        ("postgresql+asyncpg://u@localhost/offline", "WHERE active"),
    ],
    ids=["sqlite", "postgresql"],
)
def test_offline_sql_has_the_partial_indexes(url: str, where: str) -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        command.upgrade(alembic_config(url), "head", sql=True)
        command.downgrade(alembic_config(url), "head:base", sql=True)
    sql = out.getvalue()
    assert "CREATE UNIQUE INDEX uq_campaigns_active_channel ON campaigns (channel_id) " + where in sql
    assert "CREATE UNIQUE INDEX uq_games_active_campaign ON games (campaign_id) WHERE status = 'active'" in sql
    for table in TABLES:
        assert f"CREATE TABLE {table} (" in sql
        assert f"DROP TABLE {table}" in sql


@pytest.mark.asyncio
async def test_0004_numbers_each_campaigns_battles_and_their_history(db_url: str) -> None:
    """Existing games get 1, 2, 3 per campaign in the order they were made; a figure's history that
    named its campaign's games by id names them by number (and back on the way down)."""
    from sqlalchemy import text

    await upgrade(db_url, "0003_pace")
    engine = make_engine(db_url)
    history = [
        {"battle": 3, "note": "Battle 3: fought", "date": "2025-05-01"},
        {"battle": 5, "note": "misses 1 game", "games_out": 1},
        {"battle": 9, "result": "imported from a file"},  # no game of this campaign: kept as written
        "an old campaign's note",
    ]
    try:
        async with engine.begin() as conn:
            for campaign in (1, 2):
                await conn.execute(
                    text(
                        "INSERT INTO campaigns (id, guild_id, channel_id, name, ruleset, gm_id, active, settings, created_at) "
                        "VALUES (:id, 1, :channel, 'C', 'ssg', 1, :active, '{}', CURRENT_TIMESTAMP)"
                    ),
                    {"id": campaign, "channel": 100 + campaign, "active": True},
                )
            # Games 1..5 made in turn by campaigns 1, 2, 1, 2, 1: each campaign's are 1, 2(, 3).
            for game, campaign in [(1, 1), (2, 2), (3, 1), (4, 2), (5, 1)]:
                await conn.execute(
                    text(
                        "INSERT INTO games (id, campaign_id, ruleset, status, state, version, created_at) "
                        "VALUES (:id, :campaign, 'ssg', 'ended', '{}', 1, CURRENT_TIMESTAMP)"
                    ),
                    {"id": game, "campaign": campaign},
                )
            await conn.execute(
                text(
                    "INSERT INTO figures (id, campaign_id, owner_id, name, side, kind, stats, status, history, created_at) "
                    "VALUES (1, 1, 1, 'Rossi', 'red', 'rifle', '{}', 'resting', :history, CURRENT_TIMESTAMP)"
                ),
                {"history": json.dumps(history)},
            )
    finally:
        await engine.dispose()

    await upgrade(db_url)

    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            numbers = (await conn.execute(text("SELECT id, campaign_id, number FROM games ORDER BY id"))).all()
            (written,) = (await conn.execute(text("SELECT history FROM figures"))).one()
            with pytest.raises(IntegrityError):  # one battle 2 a campaign
                await conn.execute(
                    text(
                        "INSERT INTO games (id, campaign_id, number, ruleset, status, state, version, created_at) "
                        "VALUES (6, 1, 2, 'ssg', 'ended', '{}', 1, CURRENT_TIMESTAMP)"
                    )
                )
    finally:
        await engine.dispose()
    assert [tuple(row) for row in numbers] == [(1, 1, 1), (2, 2, 1), (3, 1, 2), (4, 2, 2), (5, 1, 3)]
    assert _json(written) == [
        {"battle": 2, "note": "Battle 2: fought", "date": "2025-05-01"},
        {"battle": 3, "note": "misses 1 game", "games_out": 1},
        {"battle": 9, "result": "imported from a file"},
        "an old campaign's note",
    ]

    await downgrade(db_url, "0003_pace")

    assert "number" not in {c["name"] for c in await _inspect(db_url, lambda insp: insp.get_columns("games"))}
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            (written,) = (await conn.execute(text("SELECT history FROM figures"))).one()
    finally:
        await engine.dispose()
    assert _json(written) == history


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value
