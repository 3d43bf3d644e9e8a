"""The store's interface: frozen records in and out, the same on SQLite and PostgreSQL, and database
trouble translated at the boundary into sentences a player may read."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from bot.dice import RolledDie
from bot.store import Busy, Conflict, Database, Store
from bot.store.errors import BUSY_SENTENCE, RACE_SENTENCE
from bot.store.records import Campaign, Game, LogEntry
from rules.core import Event, RuleError

GUILD, CHANNEL, GM, PLAYER = 11, 22, 33, 44


@pytest.fixture
def store(database: Database) -> Store:
    return Store(database)


async def new_campaign(store: Store, channel: int = CHANNEL) -> Campaign:
    async with store.transaction() as u:
        return await u.campaigns.create(guild_id=GUILD, channel_id=channel, name="Peninsula", ruleset="ssg", gm_id=GM)


async def test_records_come_back_as_they_went_in_and_cannot_be_changed_by_hand(store: Store) -> None:
    campaign = await new_campaign(store)
    async with store.transaction() as u:
        assert await u.campaigns.here(GUILD, CHANNEL) == campaign
        member = await u.members.add(campaign.id, PLAYER, "Rita", "player", "red")
        figure = await u.figures.add(campaign.id, owner_id=PLAYER, name="Rossi", side="red", kind="rifle", stats={})
        game = await u.games.create(campaign.id, 1, "ssg", {"turn": 1})
    async with store.transaction() as u:
        assert await u.play.campaign_and_member(GUILD, CHANNEL, PLAYER) == (campaign, member)
        assert await u.figures.named(campaign.id, "  rossi ") == figure
        assert await u.games.in_progress(campaign.id) == game
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.state = {}  # type: ignore[misc]


async def test_a_game_written_at_a_stale_version_is_a_conflict_and_nothing_is_kept(store: Store) -> None:
    campaign = await new_campaign(store)
    async with store.transaction() as u:
        game = await u.games.create(campaign.id, 1, "ssg", {"turn": 1})
    with pytest.raises(Conflict) as raised:
        async with store.transaction() as u:
            newer = await u.play.save_state(game, {"turn": 2})
            assert newer.version == game.version + 1
            entry = LogEntry(game.id, 1, 7, PLAYER, "red", False, "/ssg next", None, None, [], [])
            await u.play.append_action(entry)
            await u.play.save_state(game, {"turn": 3})  # read before the write above: stale
    assert raised.value.message == RACE_SENTENCE and isinstance(raised.value, RuleError)
    async with store.transaction() as u:
        assert (await u.games.get(game.id)) == game  # neither write, nor the log entry, was kept
        assert await u.log.count(game.id) == 0


async def test_a_unique_value_taken_at_the_same_moment_is_a_conflict(store: Store) -> None:
    await new_campaign(store)
    with pytest.raises(Conflict, match="same moment"):
        await new_campaign(store)  # a second active campaign in one channel
    async with store.transaction() as u:
        game = await u.games.create((await u.campaigns.here(GUILD, CHANNEL)).id, 1, "ssg", {})  # type: ignore[union-attr]
        await u.play.append_action(LogEntry(game.id, 1, 99, GM, None, True, "/game start", None, None, [], []))
    with pytest.raises(Conflict):
        async with store.transaction() as u:  # the same interaction applied twice
            await u.play.append_action(LogEntry(game.id, 2, 99, GM, None, True, "/game start", None, None, [], []))


async def test_a_logged_action_comes_back_with_its_events_and_dice(store: Store) -> None:
    campaign = await new_campaign(store)
    async with store.transaction() as u:
        game = await u.games.create(campaign.id, 1, "ssg", {})
        events = [Event("shot", "Rossi fires", {"hits": 1}), Event("phase", "Melee")]
        rolls = [RolledDie("die", 6, "4", "Rossi: shot"), RolledDie("card", None, "AH", "initiative")]
        entry = LogEntry(
            game.id, 1, 1234, PLAYER, "red", False, "/ssg shoot", {"name": "shoot"}, {"a": 1}, events, rolls
        )
        action_id = await u.play.append_action(entry)
    async with store.transaction() as u:
        found = await u.log.applied(1234)
        assert found is not None and found.id == action_id
        assert (found.command, found.events, found.rolls, found.state_before) == ("/ssg shoot", events, rolls, {"a": 1})
        assert [r.rolls for r in await u.log.entries(game.id, with_rolls=True)] == [rolls]


async def test_a_database_locked_by_another_process_is_busy_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite3"
    store = await Store.open(f"sqlite+aiosqlite:///{path}", connect_args={"timeout": 0.2})
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(Busy) as raised:
            await new_campaign(store)
        assert raised.value.message == BUSY_SENTENCE
        other.execute("ROLLBACK")
        async with store.transaction() as u:
            assert await u.campaigns.here(GUILD, CHANNEL) is None
        assert isinstance(await new_campaign(store), Campaign)
    finally:
        other.close()
        await store.close()


def test_a_game_record_is_plain_data() -> None:
    game = Game(1, 2, 3, "active", {"turn": 1}, 1, None)
    assert dataclasses.asdict(game)["state"] == {"turn": 1}
