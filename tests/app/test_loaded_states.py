"""States kept between commands (bot.app.context.LoadedStates): built once per game and version, never
one that did not commit, and never stale when another process moved the game on."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from bot.app.access import campaign_of
from bot.app.context import LoadedStates
from bot.app.service import App
from bot.dice import ForcedDice, SeededDice
from bot.store import Store
from bot.store.database import Database
from bot.store.schema import Game
from rules import get_engine
from rules.core import Action
from tests.named_app import NamedApp
from tests.orm import orm
from tests.support import RED, caller, ssg_table


class CountingEngine:
    """An engine that counts the states it builds."""

    def __init__(self) -> None:
        self.built = 0

    def load_state(self, data: Any) -> dict[str, Any]:
        self.built += 1
        return {"built from": data}


class Saved:
    def __init__(self, id: int, version: int, state: Any) -> None:
        self.id, self.version, self.state = id, version, state


def test_a_state_is_built_once_per_game_and_version() -> None:
    engine, states = CountingEngine(), LoadedStates()
    first = states.load(engine, Saved(1, 1, "v1"))  # type: ignore[arg-type]
    assert states.load(engine, Saved(1, 1, "v1")) is first  # type: ignore[arg-type]
    assert engine.built == 1
    assert states.load(engine, Saved(1, 2, "v2")) == {"built from": "v2"}  # type: ignore[arg-type]
    assert states.load(engine, Saved(2, 2, "other game")) == {"built from": "other game"}  # type: ignore[arg-type]
    assert engine.built == 3


def test_another_engine_builds_and_checks_the_state_again() -> None:
    """House rules changed: the campaign has another engine, whose checks the state must pass."""
    before, after, states = CountingEngine(), CountingEngine(), LoadedStates()
    states.load(before, Saved(1, 1, "v1"))  # type: ignore[arg-type]
    states.load(after, Saved(1, 1, "v1"))  # type: ignore[arg-type]
    assert (before.built, after.built) == (1, 1)


def test_the_least_recently_used_game_goes_first() -> None:
    engine, states = CountingEngine(), LoadedStates(capacity=2)
    for game in (1, 2):
        states.load(engine, Saved(game, 1, game))  # type: ignore[arg-type]
    states.load(engine, Saved(1, 1, 1))  # type: ignore[arg-type]  (game 1 used again)
    states.load(engine, Saved(3, 1, 3))  # type: ignore[arg-type]  (game 2 goes)
    assert len(states) == 2 and engine.built == 3
    states.load(engine, Saved(1, 1, 1))  # type: ignore[arg-type]
    assert engine.built == 3
    states.load(engine, Saved(2, 1, 2))  # type: ignore[arg-type]
    assert engine.built == 4


async def saved_game(app: App) -> Game:
    async with orm(app.store.db) as s:
        return await s.scalar(select(Game).order_by(Game.id.desc()))


async def test_an_action_keeps_the_state_it_committed(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    await app.act(caller(RED), "ssg", "move", {"figure": "Rossi", "distance": 2.0}, "/ssg move")
    game = await saved_game(app)
    engine = get_engine("ssg")
    kept = app.ctx.states.load(engine, game)
    assert engine.dump_state(kept) == game.state
    assert app.ctx.states._kept[game.id][0] == game.version


async def test_an_action_that_rolled_back_leaves_no_state_behind(
    app: App, forced: ForcedDice, monkeypatch: pytest.MonkeyPatch
) -> None:
    await ssg_table(app, forced)
    await app.act(caller(RED), "ssg", "move", {"figure": "Rossi", "distance": 1.0}, "/ssg move")

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("failed after the state was written")

    with monkeypatch.context() as patched:
        patched.setattr(app.actions, "answer", broken)
        with pytest.raises(RuntimeError):
            await app.act(caller(RED), "ssg", "move", {"figure": "Rossi", "distance": 1.0}, "/ssg move")
    game = await saved_game(app)
    assert app.ctx.states._kept[game.id][0] == game.version  # the committed version, not the one rolled back
    await app.act(caller(RED), "ssg", "move", {"figure": "Rossi", "distance": 1.0}, "/ssg move")
    state = (await saved_game(app)).state
    assert next(f for f in state["figures"] if f["name"] == "Rossi")["moved"] == 2.0


async def test_a_game_moved_on_by_another_process_is_read_afresh(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    forced.fallback = SeededDice(3)
    await app.act(caller(RED), "ssg", "move", {"figure": "Rossi", "distance": 1.0}, "/ssg move")
    other = NamedApp(Store(await Database.open(app.store.db.url, upgrade=False)), lambda: forced)
    try:
        await other.act(caller(RED), "ssg", "move", {"figure": "Rossi", "distance": 1.0}, "/ssg move")
    finally:
        await other.store.close()
    await app.act(caller(RED), "ssg", "move", {"figure": "Rossi", "distance": 1.0}, "/ssg move")
    state = (await saved_game(app)).state
    assert next(f for f in state["figures"] if f["name"] == "Rossi")["moved"] == 3.0


async def test_actions_applied_under_one_lock_keep_nothing_uncommitted(app: App, forced: ForcedDice) -> None:
    """The pace scheduler passes a turn step by step in one transaction: a step reads the game as
    the step before wrote it, not yet committed, and a rollback must leave no such state kept."""
    await ssg_table(app, forced)
    await app.act(caller(RED), "ssg", "move", {"figure": "Rossi", "distance": 1.0}, "/ssg move")
    with pytest.raises(RuntimeError, match="rolled back"):
        async with app.store.transaction() as u:
            campaign = await campaign_of(u, caller(RED))
            for _ in range(2):
                game = await u.games.in_progress(campaign.id, lock=True)
                step = Action("move", "red", {"figure": "Rossi", "distance": 0.5}, False)
                await app.actions.apply(u, campaign, game, caller(RED), step, "/ssg move")
            raise RuntimeError("rolled back")
    game = await saved_game(app)
    assert app.ctx.states._kept[game.id][0] == game.version
    await app.act(caller(RED), "ssg", "move", {"figure": "Rossi", "distance": 1.0}, "/ssg move")
    state = (await saved_game(app)).state
    assert next(f for f in state["figures"] if f["name"] == "Rossi")["moved"] == 2.0
