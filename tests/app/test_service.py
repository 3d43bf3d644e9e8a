"""The application layer on a real, migrated SQLite file: who may do what, and nothing lost."""

from __future__ import annotations

import asyncio
import shlex

import pytest
from sqlalchemy import func, select

from bot.app.entries import command_line
from bot.app.inputs import parse_stats
from bot.app.replies import Refusal
from bot.app.service import App
from bot.dice import ForcedDice, SeededDice
from bot.store import Store
from bot.store.database import Database
from bot.store.schema import ActionRecord, Game, RollRecord
from rules.core import RuleError
from tests.named_app import NamedApp
from tests.orm import orm
from tests.support import BLUE, CHANNEL, GM, RED, STRANGER, caller, join, ssg_table


async def game_state(app: App) -> dict:
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game).order_by(Game.id.desc()))
        return game.state


async def test_one_active_campaign_per_channel(app: App) -> None:
    await app.campaign_new(caller(GM), "First", "ssg")
    with pytest.raises(Refusal, match="already runs"):
        await app.campaign_new(caller(RED), "Second", "ssg")
    await app.campaign_new(caller(RED, channel=CHANNEL + 1), "Elsewhere", "ssg")
    await app.campaign_end(caller(GM))
    await app.campaign_new(caller(RED), "Second", "ssg")


async def test_unknown_ruleset_and_empty_names_are_refused(app: App) -> None:
    with pytest.raises(Refusal, match="no ruleset"):
        await app.campaign_new(caller(GM), "X", "chess")
    with pytest.raises(Refusal, match="letter or digit"):
        await app.campaign_new(caller(GM), "\u200b  ", "ssg")


async def test_only_the_game_master_ends_or_starts(app: App) -> None:
    await app.campaign_new(caller(GM), "C", "ssg")
    await join(app, RED, "Rita", "red")
    for attempt in (app.campaign_end, app.game_start, app.game_end):
        with pytest.raises(Refusal, match="Only the game master"):
            await attempt(caller(RED))


async def test_a_campaign_is_invisible_from_another_channel_or_guild(app: App) -> None:
    await app.campaign_new(caller(GM), "C", "ssg")
    with pytest.raises(Refusal, match="no campaign in this channel"):
        await app.campaign_info(caller(GM, channel=CHANNEL + 1))
    with pytest.raises(Refusal, match="no campaign in this channel"):
        await app.campaign_info(caller(GM, guild=999))
    assert await app.figure_names(caller(GM, guild=999), "") == []


async def test_roster_ownership(app: App) -> None:
    await app.campaign_new(caller(GM), "C", "ssg")
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")
    with pytest.raises(Refusal, match="not in this campaign"):
        await app.roster_add(caller(STRANGER), "Spy", "rifle")
    with pytest.raises(Refusal, match="only the game master may add figures to blue"):
        await app.roster_add(caller(RED), "Spy", "rifle", side="blue")
    await app.roster_add(caller(RED), "Rossi", "Submachine Gun")
    await app.roster_add(caller(GM), "Bo", "pistol", side="blue")
    with pytest.raises(Refusal, match="already a figure"):
        await app.roster_add(caller(BLUE), "rossi", "rifle")
    with pytest.raises(RuleError):
        await app.roster_add(caller(RED), "Ada", "crossbow")
    with pytest.raises(Refusal, match="not yours"):
        await app.roster_remove(caller(BLUE), "Rossi")
    shown = await app.roster_show(caller(BLUE), "rossi")
    assert ("Type", "smg", True) in shown.cards[0].fields
    await app.roster_remove(caller(GM), "Rossi")
    await app.roster_remove(caller(GM), "Bo")
    listed = await app.roster_list(caller(RED))
    assert "No figures yet" in listed.cards[0].description


async def test_players_act_only_for_their_side_and_the_gm_for_the_active_one(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    with pytest.raises(RuleError, match="red's turn"):
        await app.act(caller(BLUE), "ssg", "move", {"figure": "Bo", "distance": 2.0}, "/ssg move")
    with pytest.raises(Refusal, match="not in this campaign"):
        await app.act(caller(STRANGER), "ssg", "next", {}, "/ssg next")
    with pytest.raises(Refusal, match="use /ssg commands"):
        await app.act(caller(RED), "sharpe", "next", {}, "/sharpe next")
    reply = await app.act(caller(GM), "ssg", "move", {"figure": "Rossi", "distance": 2.0}, "/ssg move")
    assert reply.cards[0].title.startswith("Red")
    async with orm(app.store.db) as s:
        record = await s.scalar(select(ActionRecord).order_by(ActionRecord.seq.desc()))
    assert record.by_gm is True and record.side == "red"


async def test_a_refused_action_changes_nothing(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    before = await game_state(app)
    with pytest.raises(RuleError):
        await app.act(caller(RED), "ssg", "move", {"figure": "Rossi", "distance": 9.0}, "/ssg move")
    with pytest.raises(RuleError):
        await app.act(caller(RED), "ssg", "move", {"figure": "Nobody", "distance": 1.0}, "/ssg move")
    assert await game_state(app) == before
    async with orm(app.store.db) as s:
        assert await s.scalar(select(func.count()).select_from(ActionRecord)) == 1  # only /game start


async def test_a_repeated_roll_is_applied_once(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    forced.push_dice([4])
    once = caller(RED, interaction_id=888)
    first = await app.roll(once, "1d6")
    again = await app.roll(once, "1d6")
    assert again.replayed and [r.value for r in again.rolls] == [r.value for r in first.rolls] == ["4"]


async def test_the_same_interaction_is_applied_once(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    once = caller(RED, interaction_id=777)
    await app.act(once, "ssg", "move", {"figure": "Rossi", "distance": 2.0}, "/ssg move")
    again = await app.act(once, "ssg", "move", {"figure": "Rossi", "distance": 2.0}, "/ssg move")
    assert again.replayed and again.ephemeral
    state = await game_state(app)
    assert next(f for f in state["figures"] if f["name"] == "Rossi")["moved"] == 2.0


async def test_undo_takes_back_the_last_action_for_its_player_or_the_gm(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    before = await game_state(app)
    await app.act(caller(RED), "ssg", "move", {"figure": "Rossi", "distance": 2.0}, "/ssg move")
    with pytest.raises(Refusal, match="Only the player who made the last action"):
        await app.game_undo(caller(BLUE))
    await app.game_undo(caller(RED))
    assert await game_state(app) == before
    with pytest.raises(Refusal, match="nothing to undo"):
        await app.game_undo(caller(GM))  # the game's start is not an action to take back
    log = await app.game_log(caller(BLUE))
    assert "`/ssg move` — user2 (taken back)" in log.cards[0].description


async def test_undo_reopens_a_game_won_by_mistake(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    await app.act(caller(RED), "ssg", "next", {}, "/ssg next")
    for target in ["Big Jim", "Bo", "Bert"]:
        forced.push_dice([6])
        shooter = {"Big Jim": "Rossi", "Bo": "Ada", "Bert": "Eli"}[target]
        await app.act(
            caller(RED),
            "ssg",
            "shoot",
            {"shooter": shooter, "target": target, "range": 5.0, "los": "clear"},
            "/ssg shoot",
        )
    forced.push_dice([6])
    won = await app.act(
        caller(RED), "ssg", "shoot", {"shooter": "Fay", "target": "Bill", "range": 5.0, "los": "clear"}, "/ssg shoot"
    )
    assert any(e.kind == "victory" for e in won.events)
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game))
        assert (game.status, game.winner) == ("ended", "red")
    await app.game_undo(caller(GM))
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game))
        assert (game.status, game.winner) == ("active", None)


async def test_fifty_simultaneous_actions_are_serialised(app: App, forced: ForcedDice) -> None:
    """Fifty free rolls at once on one game: each logged once, with consecutive numbers."""
    await ssg_table(app, forced)
    forced.fallback = SeededDice(7)
    results = await asyncio.gather(*(app.roll(caller(RED), "1d6", f"roll {n}") for n in range(50)))
    assert len(results) == 50
    async with orm(app.store.db) as s:
        seqs = list(await s.scalars(select(ActionRecord.seq).order_by(ActionRecord.seq)))
        rolls = await s.scalar(select(func.count()).select_from(RollRecord))
    assert seqs == list(range(1, 52))
    assert rolls == 2 + 50  # the roll-off's two dice and one die per free roll


async def test_concurrent_moves_lose_no_update(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    moves = [
        app.act(caller(RED), "ssg", "move", {"figure": name, "distance": 1.0}, "/ssg move")
        for name in ["Rossi", "Ada", "Cy", "Dee", "Eli", "Fay"] * 4
    ]
    await asyncio.gather(*moves)
    state = await game_state(app)
    assert all(f["moved"] == 4.0 for f in state["figures"] if f["side"] == "red")


async def test_two_processes_on_one_database_lose_no_update(app: App, forced: ForcedDice) -> None:
    """A second bot process (its own Database: its own connections and locks) moves the same
    figures at the same time: the database's lock, not this process's, keeps every move."""
    await ssg_table(app, forced)
    forced.fallback = SeededDice(3)
    other = NamedApp(Store(await Database.open(app.store.db.url, upgrade=False)), lambda: forced)
    try:
        moves = [
            bot.act(caller(RED), "ssg", "move", {"figure": name, "distance": 0.5}, "/ssg move")
            for name in ["Rossi", "Ada", "Cy"] * 4
            for bot in (app, other)
        ]
        rolls = [bot.roll(caller(BLUE), "1d6") for bot in (app, other) for _ in range(5)]
        await asyncio.gather(*moves, *rolls)
    finally:
        await other.store.close()
    state = await game_state(app)
    assert [f["moved"] for f in state["figures"] if f["name"] in ("Rossi", "Ada", "Cy")] == [4.0, 4.0, 4.0]
    async with orm(app.store.db) as s:
        seqs = list(await s.scalars(select(ActionRecord.seq).order_by(ActionRecord.seq)))
    assert seqs == list(range(1, 2 + 24 + 10))


async def test_free_roll_outside_a_campaign_still_works(app: App, forced: ForcedDice) -> None:
    forced.push_dice([3, 4])
    reply = await app.roll(caller(STRANGER), "2d6+1", "a ditch")
    assert "**Total: 8**" in reply.cards[0].description
    assert [r.reason for r in reply.rolls] == ["user4: a ditch", "user4: a ditch"]


def test_stats_and_command_lines() -> None:
    assert parse_stats("I=4 D=-1 horse=yes") == {"I": 4, "D": -1, "horse": "yes"}
    with pytest.raises(Refusal):
        parse_stats("I4")
    assert (
        command_line("ssg", "shoot", {"target": "Big Jim", "range": 14.0, "dice": None})
        == '/ssg shoot target:"Big Jim" range:14'
    )
    tricky = command_line("roll", "", {"reason": 'a "quoted" \\ thing'})
    assert shlex.split(tricky) == ["/roll", 'reason:a "quoted" \\ thing']


def test_stats_values_may_hold_commas_and_spaces() -> None:
    assert parse_stats('speed=4, armour="mailshirt, small shield" bow=yes') == {
        "speed": 4,
        "armour": "mailshirt, small shield",
        "bow": "yes",
    }
    assert parse_stats("armour=mailshirt,small-shield") == {"armour": "mailshirt,small-shield"}
    with pytest.raises(Refusal, match="unclosed quote"):
        parse_stats('armour="mail')
