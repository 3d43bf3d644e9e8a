"""The database layer against real SQLite and PostgreSQL: transactions, constraints, locking."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
import threading
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError, InvalidRequestError, OperationalError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.exc import StaleDataError

from bot.store import Database, sqlite_url
from bot.store.database import CHECKPOINT_EVERY, SQLITE_BUSY_TIMEOUT_MS
from bot.store.schema import ActionRecord, Campaign, DecisionRecord, EventRecord, Figure, Game, Member, RollRecord
from tests.orm import lock_active_game, lock_game, orm

GUILD, CHANNEL, GM, PLAYER = 111_111_111_111_111_111, 222_222_222_222_222_222, 3_333, 4_444


def new_campaign(channel: int = CHANNEL, *, active: bool = True, name: str = "Peninsula") -> Campaign:
    return Campaign(guild_id=GUILD, channel_id=channel, name=name, ruleset="ssg", gm_id=GM, active=active)


async def count(session: AsyncSession, model: type) -> int:
    return await session.scalar(select(func.count()).select_from(model))


async def make_game(db: Database, state: dict | None = None) -> tuple[int, int]:
    async with orm(db) as session:
        campaign = new_campaign()
        session.add(campaign)
        await session.flush()
        game = Game(campaign_id=campaign.id, number=1, ruleset="ssg", state=state or {"counter": 0})
        session.add(game)
        await session.flush()
        return campaign.id, game.id


def action(game_id: int, seq: int, interaction_id: int | None = None) -> ActionRecord:
    return ActionRecord(
        game_id=game_id,
        seq=seq,
        interaction_id=interaction_id,
        user_id=PLAYER,
        side="British",
        by_gm=False,
        command='/ssg shoot shooter:Rossi target:"Big Jim" range:14',
        state_before={"counter": 0},
    )


# --- transactions ----------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_transaction_commits(db: Database) -> None:
    async with orm(db) as session:
        session.add(new_campaign())

    async with orm(db) as session:
        (campaign,) = (await session.scalars(select(Campaign))).all()
    assert campaign.name == "Peninsula"
    assert campaign.channel_id == CHANNEL  # a Discord id survives (BigInteger)
    assert campaign.settings == {} and campaign.house_rules is None and campaign.active is True


@pytest.mark.asyncio
async def test_an_exception_rolls_back_everything(db: Database) -> None:
    class Boom(Exception):
        pass

    with pytest.raises(Boom):
        async with orm(db) as session:
            campaign = new_campaign()
            session.add(campaign)
            await session.flush()
            session.add(Member(campaign_id=campaign.id, user_id=GM, display_name="GM", role="gm"))
            await session.flush()
            raise Boom

    async with orm(db) as session:
        assert await count(session, Campaign) == 0
        assert await count(session, Member) == 0


@pytest.mark.asyncio
async def test_a_failed_commit_rolls_back_and_the_database_stays_usable(db: Database) -> None:
    with pytest.raises(IntegrityError):
        async with orm(db) as session:
            session.add(new_campaign())
            session.add(new_campaign())  # same channel, both active: refused at flush/commit

    async with orm(db) as session:
        assert await count(session, Campaign) == 0
        session.add(new_campaign())
    async with orm(db) as session:
        assert await count(session, Campaign) == 1


@pytest.mark.asyncio
async def test_nested_transactions_in_one_task_are_refused(db: Database) -> None:
    async with orm(db):
        with pytest.raises(RuntimeError, match="already open"):
            async with orm(db):
                pass  # pragma: no cover


@pytest.mark.asyncio
async def test_objects_stay_readable_after_commit(db: Database) -> None:
    async with orm(db) as session:
        campaign = new_campaign()
        session.add(campaign)
    # expire_on_commit=False: no lazy refresh (which async code could not do) after the block.
    assert campaign.id is not None and campaign.name == "Peninsula"


# --- constraints -----------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_repeated_interaction_applies_once(db: Database) -> None:
    _, game_id = await make_game(db)
    async with orm(db) as session:
        session.add(action(game_id, 1, interaction_id=1_234_567_890_123_456_789))

    with pytest.raises(IntegrityError):
        async with orm(db) as session:
            session.add(action(game_id, 2, interaction_id=1_234_567_890_123_456_789))

    async with orm(db) as session:
        # Actions without an interaction (the terminal front-end) do not collide with each other.
        session.add(action(game_id, 2))
        session.add(action(game_id, 3))
    async with orm(db) as session:
        seqs = (await session.scalars(select(ActionRecord.seq).order_by(ActionRecord.seq))).all()
    assert seqs == [1, 2, 3]


@pytest.mark.asyncio
async def test_action_seq_is_unique_within_a_game(db: Database) -> None:
    _, game_id = await make_game(db)
    async with orm(db) as session:
        session.add(action(game_id, 1))
    with pytest.raises(IntegrityError):
        async with orm(db) as session:
            session.add(action(game_id, 1))


@pytest.mark.asyncio
async def test_one_active_campaign_per_channel(db: Database) -> None:
    async with orm(db) as session:
        session.add(new_campaign(name="First"))

    with pytest.raises(IntegrityError):
        async with orm(db) as session:
            session.add(new_campaign(name="Second"))

    async with orm(db) as session:
        # Ended campaigns in the same channel are fine, as many as you like,
        session.add(new_campaign(active=False, name="Old one"))
        session.add(new_campaign(active=False, name="Older one"))
        # and so is an active one in another channel.
        session.add(new_campaign(channel=CHANNEL + 1, name="Elsewhere"))

    async with orm(db) as session:
        first = await session.scalar(select(Campaign).where(Campaign.name == "First"))
        first.active = False  # end it ...
        await session.flush()
        session.add(new_campaign(name="Second"))  # ... and the channel takes a new one

    async with orm(db) as session:
        active = (
            await session.scalars(select(Campaign.name).where(Campaign.channel_id == CHANNEL, Campaign.active))
        ).all()
    assert active == ["Second"]


@pytest.mark.asyncio
async def test_one_active_game_per_campaign(db: Database) -> None:
    campaign_id, game_id = await make_game(db)
    with pytest.raises(IntegrityError):
        async with orm(db) as session:
            session.add(Game(campaign_id=campaign_id, number=2, ruleset="ssg", state={}))

    async with orm(db) as session:
        game = await lock_game(session, game_id)
        game.status, game.winner, game.ended_at = "ended", "British", datetime.now(UTC)
        await session.flush()
        session.add(Game(campaign_id=campaign_id, number=2, ruleset="ssg", state={}))

    async with orm(db) as session:
        active = await lock_active_game(session, campaign_id)
        assert active is not None and active.id != game_id


@pytest.mark.asyncio
async def test_member_per_campaign_and_figure_names_are_unique(db: Database) -> None:
    async with orm(db) as session:
        campaign = new_campaign()
        session.add(campaign)
        await session.flush()
        campaign_id = campaign.id
        session.add(Member(campaign_id=campaign_id, user_id=PLAYER, display_name="P", role="player"))
        session.add(Figure(campaign_id=campaign_id, owner_id=PLAYER, name="Rossi", side="British", kind="rifleman"))

    with pytest.raises(IntegrityError):
        async with orm(db) as session:
            session.add(Member(campaign_id=campaign_id, user_id=PLAYER, display_name="P2", role="player"))
    with pytest.raises(IntegrityError):
        async with orm(db) as session:
            session.add(Figure(campaign_id=campaign_id, owner_id=GM, name="Rossi", side="French", kind="voltigeur"))
    with pytest.raises(IntegrityError):
        async with orm(db) as session:
            session.add(Member(campaign_id=campaign_id, user_id=GM, display_name="G", role="king"))


@pytest.mark.asyncio
async def test_foreign_keys_are_enforced(db: Database) -> None:
    with pytest.raises(IntegrityError):
        async with orm(db) as session:
            session.add(Member(campaign_id=999_999, user_id=PLAYER, display_name="P", role="player"))


@pytest.mark.asyncio
async def test_deleting_a_campaign_deletes_what_belongs_to_it(db: Database) -> None:
    campaign_id, game_id = await make_game(db)
    async with orm(db) as session:
        session.add(Member(campaign_id=campaign_id, user_id=GM, display_name="GM", role="gm"))
        session.add(Figure(campaign_id=campaign_id, owner_id=PLAYER, name="Rossi", side="British", kind="rifleman"))
        record = action(game_id, 1, interaction_id=42)
        record.events = [EventRecord(seq=1, kind="shot", text="Rossi fires.", data={})]
        record.rolls = [RollRecord(seq=1, kind="die", sides=6, value="5", reason="Rossi: shot")]
        session.add(record)
        session.add(
            DecisionRecord(
                campaign_id=campaign_id,
                game_id=game_id,
                decider="British",
                kind="morale",
                prompt="Stand or fall back?",
                choices=[{"value": "stand", "label": "Stand"}],
                resume={"action": "morale"},
            )
        )

    async with orm(db) as session:
        campaign = await session.get(Campaign, campaign_id)
        await session.delete(campaign)

    async with orm(db) as session:
        for model in (Campaign, Member, Figure, Game, ActionRecord, EventRecord, RollRecord, DecisionRecord):
            assert await count(session, model) == 0, model.__name__


# --- loading ---------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_relationships_load_explicitly_in_order_and_never_lazily(db: Database) -> None:
    _, game_id = await make_game(db)
    async with orm(db) as session:
        for seq in (2, 1, 3):
            record = action(game_id, seq)
            record.events = [EventRecord(seq=s, kind="note", text=f"{seq}.{s}", data={"n": s}) for s in (2, 1)]
            record.rolls = [
                RollRecord(seq=2, kind="card", value="10D", reason="initiative"),
                RollRecord(seq=1, kind="die", sides=6, value="6", reason="shot", secret=True),
            ]
            session.add(record)

    async with orm(db) as session:
        game = await session.scalar(
            select(Game)
            .where(Game.id == game_id)
            .options(
                selectinload(Game.actions).selectinload(ActionRecord.events),
                selectinload(Game.actions).selectinload(ActionRecord.rolls),
            )
        )
        assert [a.seq for a in game.actions] == [1, 2, 3]
        assert [e.text for e in game.actions[0].events] == ["1.1", "1.2"]
        assert [(r.kind, r.value, r.secret) for r in game.actions[0].rolls] == [
            ("die", "6", True),
            ("card", "10D", False),
        ]

        plain = await session.scalar(select(ActionRecord).where(ActionRecord.seq == 1))
        with pytest.raises(InvalidRequestError):
            plain.game.campaign  # noqa: B018 - the campaign was never loaded: no lazy load
        campaign_less = await session.scalar(select(Campaign))
        with pytest.raises(InvalidRequestError):
            campaign_less.members  # noqa: B018


@pytest.mark.asyncio
async def test_timestamps_are_timezone_aware_utc(db: Database) -> None:
    paris = timezone(timedelta(hours=2))
    answered = datetime(2026, 6, 18, 14, 30, tzinfo=paris)
    async with orm(db) as session:
        campaign = new_campaign()
        session.add(campaign)
        await session.flush()
        session.add(
            DecisionRecord(
                campaign_id=campaign.id,
                decider="gm",
                kind="confirm",
                prompt="Sure?",
                status="answered",
                answer="yes",
                answered_at=answered,
            )
        )
    before = datetime.now(UTC)
    async with orm(db) as session:
        decision = await session.scalar(select(DecisionRecord))
        campaign = await session.scalar(select(Campaign))
    assert decision.answered_at == answered
    assert decision.answered_at.utcoffset() == timedelta(0)
    assert decision.created_at.tzinfo is not None
    assert abs(before - campaign.created_at) < timedelta(minutes=1)
    assert decision.choices == [] and decision.resume == {} and decision.status == "answered"


# --- locking ---------------------------------------------------------------------------------


async def bump(db: Database, game_id: int) -> None:
    """One command: lock the game, read, give everyone else a chance to run, write back."""
    async with orm(db) as session:
        game = await lock_game(session, game_id)
        version, counter = game.version, game.state["counter"]
        await asyncio.sleep(0)
        await asyncio.sleep(0.001)
        game.state = {**game.state, "counter": counter + 1}
        await session.flush()
        assert game.version == version + 1  # every save bumps the version


async def read_game(db: Database, game_id: int) -> Game:
    async with orm(db) as session:
        return await session.get(Game, game_id)


@pytest.mark.asyncio
async def test_no_lost_update_under_concurrency(db: Database) -> None:
    _, game_id = await make_game(db)
    assert (await read_game(db, game_id)).version == 1

    await asyncio.gather(*(bump(db, game_id) for _ in range(50)))

    game = await read_game(db, game_id)
    assert game.state["counter"] == 50
    assert game.version == 51


@pytest.mark.asyncio
async def test_no_lost_update_with_two_databases_on_one_sqlite_file(sqlite_db_url: str) -> None:
    first = await Database.open(sqlite_db_url)
    second = await Database.open(sqlite_db_url)  # a second pool, as another process would have
    try:
        _, game_id = await make_game(first)

        await asyncio.gather(*(bump((first, second)[i % 2], game_id) for i in range(50)))

        for db in (first, second):
            game = await read_game(db, game_id)
            assert game.state["counter"] == 50
            assert game.version == 51
    finally:
        await first.close()
        await second.close()


@pytest.mark.asyncio
async def test_a_stale_copy_of_a_game_cannot_overwrite_a_newer_one(db: Database) -> None:
    _, game_id = await make_game(db)
    stale = await read_game(db, game_id)  # version 1, detached
    await bump(db, game_id)  # now version 2

    with pytest.raises(StaleDataError):
        async with orm(db) as session:
            session.add(stale)
            stale.state = {"counter": 999}

    game = await read_game(db, game_id)
    assert (game.version, game.state["counter"]) == (2, 1)


@pytest.mark.asyncio
async def test_lock_game_refreshes_what_the_session_already_held(db: Database) -> None:
    _, game_id = await make_game(db)
    async with orm(db) as session:
        assert await lock_game(session, game_id + 1000) is None
        game = await lock_game(session, game_id)
        game.state = {"counter": 7}
        await session.flush()
        # Someone (here: raw SQL) changed the row; lock_game must not hand back the old copy.
        await session.execute(text("UPDATE games SET version = version + 1 WHERE id = :id"), {"id": game_id})
        again = await lock_game(session, game_id)
        assert again is game and game.version == 3 and game.state == {"counter": 7}


@pytest.mark.asyncio
async def test_sqlite_connections_are_set_up(sqlite_db_url: str) -> None:
    db = await Database.open(sqlite_db_url)
    try:
        async with orm(db) as session:
            pragmas = {
                name: (await session.execute(text(f"PRAGMA {name}"))).scalar()
                for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
            }
        assert pragmas == {
            "journal_mode": "wal",
            "foreign_keys": 1,
            "busy_timeout": 0,  # statements run on the loop's thread and never wait there ...
            "synchronous": 1,  # NORMAL
        }
        async with db.engine.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection
        assert driver.busy_timeout_ms == SQLITE_BUSY_TIMEOUT_MS  # ... but on aiosqlite's thread
    finally:
        await db.close()


@pytest.mark.asyncio
async def test_waiting_for_another_process_lock_leaves_the_event_loop_free(sqlite_db_url: str) -> None:
    """Another process holds the write lock: the transaction waits for it on aiosqlite's thread
    while the event loop goes on, then runs as soon as the lock is free. The lock is freed by the
    event loop itself, after ten turns of a ticker on it: were the wait on the loop's thread, the
    ticker would never get there and the transaction would fail when SQLite's busy timeout ran out."""
    db = await Database.open(sqlite_db_url)
    path = Path(sqlite_db_url.split(":///", 1)[1])
    other = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while ticks < 10:
            await asyncio.sleep(0.01)
            ticks += 1
        other.execute("ROLLBACK")

    ticker = asyncio.create_task(tick())
    try:
        other.execute("BEGIN IMMEDIATE")  # before the ticker's first turn
        async with orm(db) as session:
            session.add(Campaign(guild_id=1, channel_id=2, name="Waited", ruleset="ssg", gm_id=3))
        assert ticks == 10 and ticker.done()  # the loop ran all along, and freed the lock
        async with orm(db) as session:
            assert await session.scalar(select(Campaign.name)) == "Waited"
    finally:
        ticker.cancel()
        other.close()
        await db.close()


@pytest.mark.asyncio
async def test_a_lock_never_freed_fails_after_the_timeout_and_changes_nothing(sqlite_db_url: str) -> None:
    db = await Database.open(sqlite_db_url, connect_args={"timeout": 0.2})
    path = Path(sqlite_db_url.split(":///", 1)[1])
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(OperationalError, match="locked"):
            async with orm(db) as session:
                session.add(Campaign(guild_id=1, channel_id=2, name="Never", ruleset="ssg", gm_id=3))
        other.execute("ROLLBACK")
        async with orm(db) as session:
            assert await session.scalar(select(func.count(Campaign.id))) == 0
    finally:
        other.close()
        await db.close()


@pytest.mark.asyncio
async def test_sqlite_transactions_take_the_write_lock_at_once(sqlite_db_url: str) -> None:
    db = await Database.open(sqlite_db_url)
    path = Path(sqlite_db_url.split(":///", 1)[1])
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        async with orm(db) as session:
            # A read only: with a deferred BEGIN this would take no write lock yet.
            await session.execute(select(Game.id))
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        other.execute("BEGIN IMMEDIATE")  # released on commit
        other.execute("ROLLBACK")
    finally:
        other.close()
        await db.close()


def test_sqlite_url_makes_the_folder(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "er folder" / "bot.sqlite3"
    url = sqlite_url(target)
    assert url.startswith("sqlite+aiosqlite:///")
    assert url.endswith(str(target))
    assert target.parent.is_dir()


@pytest.mark.asyncio
async def test_the_write_ahead_log_is_checkpointed_off_the_event_loop(sqlite_db_url: str, tmp_path: Path) -> None:
    """SQLite's own checkpoint (inside a commit, on the loop's thread) is off; the database runs
    one on a thread every CHECKPOINT_EVERY transactions, so the main file holds what was written
    without the WAL beside it."""
    db = await Database.open(sqlite_db_url)
    path = Path(sqlite_db_url.split(":///", 1)[1])
    try:
        async with orm(db) as session:
            assert (await session.execute(text("PRAGMA wal_autocheckpoint"))).scalar() == 0
        for n in range(CHECKPOINT_EVERY):
            async with orm(db) as session:
                session.add(new_campaign(channel=1000 + n, name=f"Front {n}"))
        assert db._checkpoint is not None
        await db._checkpoint
        if sys.platform == "linux":  # the checkpoint thread takes only the CPU time commands leave over
            nice = db._checkpointer.submit(lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id())).result()
            assert nice == 19
        alone = tmp_path / "alone.sqlite3"
        alone.write_bytes(path.read_bytes())  # the main file only, without its -wal
        copy = sqlite3.connect(alone)
        try:
            assert copy.execute("SELECT count(*) FROM campaigns").fetchone()[0] >= CHECKPOINT_EVERY - 1
        finally:
            copy.close()
    finally:
        await db.close()
