"""Plain statements in a command's transaction (``Database.plain``), on SQLite straight on the
driver and on PostgreSQL on a pooled connection: the same values back as the ORM would give, all or
nothing committed."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.engine import make_url

from bot.store import Database
from bot.store.column_values import saved_text, written_as
from bot.store.schema import Campaign, Game, utcnow
from bot.store.tx import ConnectionTx, SqliteTx
from tests.orm import orm

CAMPAIGNS = Campaign.__table__
GAMES = Game.__table__
INSERT_CAMPAIGN = insert(CAMPAIGNS).returning(CAMPAIGNS.c.id)
CAMPAIGN_BY_ID = select(
    CAMPAIGNS.c.name,
    CAMPAIGNS.c.active,
    CAMPAIGNS.c.house_rules,
    CAMPAIGNS.c.settings,
    CAMPAIGNS.c.created_at,
    CAMPAIGNS.c.gm_id,
).where(CAMPAIGNS.c.id == bindparam("id"))
RENAME = update(CAMPAIGNS).where(CAMPAIGNS.c.id == bindparam("campaign")).values(name=bindparam("new_name"))
COUNT = select(func.count()).select_from(CAMPAIGNS)


def campaign_values(channel: int, **overrides: object) -> dict[str, object]:
    return {
        "guild_id": 1,
        "channel_id": channel,
        "name": f"Campaign {channel}",
        "ruleset": "ssg",
        "gm_id": 2**40,
        "active": True,
        "house_rules": None,
        "settings": {"battles_before": 3, "note": "ünïcode"},
        "created_at": utcnow(),
        **overrides,
    }


async def test_values_come_back_as_the_orm_would_give_them(database: Database) -> None:
    made = datetime(2026, 11, 22, 10, 30, tzinfo=UTC)
    async with database.plain() as tx:
        assert isinstance(tx, SqliteTx if database.is_sqlite else ConnectionTx)
        campaign_id = await tx.scalar(INSERT_CAMPAIGN, campaign_values(7, created_at=made, house_rules={"a": [1, 2]}))
        row = await tx.first(CAMPAIGN_BY_ID, {"id": campaign_id})
    assert row == ("Campaign 7", True, {"a": [1, 2]}, {"battles_before": 3, "note": "ünïcode"}, made, 2**40)
    assert row[1] is True and row[4].tzinfo is not None
    async with orm(database) as s:  # and the ORM reads the same row the same way
        campaign = await s.get_one(Campaign, campaign_id)
        assert (campaign.house_rules, campaign.settings, campaign.created_at) == ({"a": [1, 2]}, row[3], made)


async def test_a_write_many_and_its_rowcount(database: Database) -> None:
    async with database.plain() as tx:
        await tx.run(insert(CAMPAIGNS), [campaign_values(n, active=False) for n in range(1, 4)])
        assert await tx.scalar(COUNT) == 3
        assert await tx.run(update(CAMPAIGNS).values(active=False).where(CAMPAIGNS.c.channel_id > 1), {}) == 2
        assert await tx.run(insert(CAMPAIGNS), []) == 0


async def test_everything_is_committed_together_or_nothing_is(database: Database) -> None:
    async with database.plain() as tx:
        campaign_id = await tx.scalar(INSERT_CAMPAIGN, campaign_values(1))
    with pytest.raises(RuntimeError, match="refused"):
        async with database.plain() as tx:
            await tx.run(RENAME, {"campaign": campaign_id, "new_name": "Renamed"})
            await tx.scalar(INSERT_CAMPAIGN, campaign_values(2))
            raise RuntimeError("refused halfway")
    async with database.plain() as tx:
        assert await tx.scalar(COUNT) == 1
        assert (await tx.first(CAMPAIGN_BY_ID, {"id": campaign_id}))[0] == "Campaign 1"


async def test_on_commit_runs_after_a_commit_and_never_after_a_rollback(database: Database) -> None:
    ran: list[str] = []
    async with database.plain() as tx:
        await tx.scalar(INSERT_CAMPAIGN, campaign_values(1))
        tx.on_commit(lambda: ran.append("kept"))
        assert ran == []  # not before the commit
    assert ran == ["kept"]
    with pytest.raises(RuntimeError, match="refused"):
        async with database.plain() as tx:
            tx.on_commit(lambda: ran.append("rolled back"))
            raise RuntimeError("refused")
    assert ran == ["kept"]


async def test_a_failing_on_commit_callback_leaves_the_commit_standing(
    database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    async with database.plain() as tx:
        campaign_id = await tx.scalar(INSERT_CAMPAIGN, campaign_values(1))
        tx.on_commit(lambda: 1 / 0)
    async with database.plain() as tx:
        assert await tx.first(CAMPAIGN_BY_ID, {"id": campaign_id}) is not None
    assert "a callback after a commit failed" in caplog.text


async def test_plain_and_orm_transactions_take_turns_on_one_sqlite_connection(sqlite_db_url: str) -> None:
    db = await Database.open(sqlite_db_url)
    try:
        for _ in range(3):
            async with db.plain() as tx:
                await tx.scalar(INSERT_CAMPAIGN, campaign_values(await tx.scalar(COUNT) + 1))
            async with orm(db) as s:
                s.add(Campaign(**campaign_values(100 + await s.scalar(select(func.count(Campaign.id))))))
        assert db._connection is not None and not db._connection.in_transaction()
        async with db.plain() as tx:
            assert await tx.scalar(COUNT) == 6
    finally:
        await db.close()


async def test_a_plain_transaction_waits_for_another_process_lock_and_fails_cleanly(sqlite_db_url: str) -> None:
    db = await Database.open(sqlite_db_url, connect_args={"timeout": 0.2})
    other = sqlite3.connect(Path(sqlite_db_url.split(":///", 1)[1]), timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            async with db.plain() as tx:
                await tx.scalar(INSERT_CAMPAIGN, campaign_values(1))
        other.execute("ROLLBACK")
        async with db.plain() as tx:  # the connection is usable again, and nothing was written
            assert await tx.scalar(COUNT) == 0
            await tx.scalar(INSERT_CAMPAIGN, campaign_values(1))
        assert other.execute("SELECT count(*) FROM campaigns").fetchone() == (1,)
    finally:
        other.close()
        await db.close()


async def test_a_large_json_value_is_decoded_once_while_its_text_is_the_same(database: Database) -> None:
    """A quarter-megabyte draft map in a campaign's settings is read by every command in its
    channel; on SQLite each distinct text is decoded once, and a changed row reads as changed."""
    draft = {"features": [{"kind": "rough", "area": [[n / 100, n / 7] for n in range(400)]} for _ in range(20)]}
    settings = {"battlefield": "map", "map": draft}
    async with database.plain() as tx:
        campaign_id = await tx.scalar(INSERT_CAMPAIGN, campaign_values(1, settings=settings))
    async with database.plain() as tx:
        first = (await tx.first(CAMPAIGN_BY_ID, {"id": campaign_id}))[3]
    async with database.plain() as tx:
        again = (await tx.first(CAMPAIGN_BY_ID, {"id": campaign_id}))[3]
        await tx.run(
            update(CAMPAIGNS).where(CAMPAIGNS.c.id == bindparam("campaign")).values(settings=bindparam("settings")),
            {"campaign": campaign_id, "settings": {**settings, "battlefield": "table"}},
        )
        changed = (await tx.first(CAMPAIGN_BY_ID, {"id": campaign_id}))[3]
    assert first == again == settings and changed == {**settings, "battlefield": "table"}
    if database.is_sqlite:
        assert again is first
        assert saved_text(first) is not None and json.loads(saved_text(first)) == settings
        assert saved_text(changed) is not None and saved_text({**settings}) is None


async def test_a_value_given_with_its_json_text_is_written_as_that_text(database: Database) -> None:
    """A draft checked in the maps' worker comes with its text: the settings holding it are written
    with that text as it is (not encoded again), and read back as the same value."""
    draft = {"features": [{"kind": "rough", "area": [[1.5, 2], [3, 4.25]]}], "name": "Hill"}
    text = json.dumps(draft, indent=1)  # unlike the column's own encoding, to tell them apart
    settings = {"battlefield": "map", "map": written_as(draft, text)}
    async with database.plain() as tx:
        campaign_id = await tx.scalar(INSERT_CAMPAIGN, campaign_values(1, settings=settings))
        assert (await tx.first(CAMPAIGN_BY_ID, {"id": campaign_id}))[3] == settings
    if database.is_sqlite:
        raw = sqlite3.connect(str(make_url(database.url).database))
        try:
            (saved,) = raw.execute("SELECT settings FROM campaigns WHERE id = ?", (campaign_id,)).fetchone()
        finally:
            raw.close()
        assert text in saved
