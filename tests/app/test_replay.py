"""The log is the game: replaying it with its recorded dice gives the saved state."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from bot.app.service import App
from bot.dice import ForcedDice, SeededDice
from bot.store.schema import Game
from rules import get_engine
from tests.orm import orm
from tests.replay import load_log, replay
from tests.support import BLUE, GM, RED, caller, ssg_table


async def saved_and_replayed(app: App) -> tuple[dict, dict]:
    engine = get_engine("ssg")
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game).order_by(Game.id.desc()))
        records = await load_log(s, game)
    return game.state, engine.dump_state(replay(engine, records))


async def test_a_played_game_replays_to_its_saved_state(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    forced.fallback = SeededDice(11)

    def red():
        return caller(RED, "Rita")

    await app.act(red(), "ssg", "move", {"figure": "Cy", "distance": 4.0, "contact": "Big Jim"}, "/ssg move")
    await app.act(red(), "ssg", "move", {"figure": "Rossi", "distance": 2.0}, "/ssg move")
    await app.game_undo(red())
    await app.act(red(), "ssg", "next", {}, "/ssg next")
    await app.act(red(), "ssg", "melee", {}, "/ssg melee")
    await app.roll(red(), "2d6", "weather")
    await app.act(
        caller(GM, "Gina"),
        "ssg",
        "shoot",
        {"shooter": "Ada", "target": "Bo", "range": 10.0, "los": "clear"},
        "/ssg shoot",
    )
    saved, replayed = await saved_and_replayed(app)
    assert replayed == saved


async def test_fifty_actions_at_once_are_each_logged_once_and_replay(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    forced.fallback = SeededDice(5)
    figures = ["Rossi", "Ada", "Cy", "Dee", "Eli", "Fay"]
    moves = [
        app.act(
            caller(RED, "Rita", interaction_id=90_000 + n),
            "ssg",
            "move",
            {"figure": figures[n % 6], "distance": 0.5},
            "/ssg move",
        )
        for n in range(48)
    ]
    others = [app.roll(caller(RED, "Rita"), "1d6"), app.act(caller(BLUE, "Bob"), "ssg", "next", {}, "/ssg next")]
    results = await asyncio.gather(*moves, *others, return_exceptions=True)
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1 and "red's turn" in str(refused[0])  # blue may not end red's phase
    saved, replayed = await saved_and_replayed(app)
    assert replayed == saved
    assert all(f["moved"] == 4.0 for f in saved["figures"] if f["side"] == "red")
