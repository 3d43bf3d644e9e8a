"""/odds is worked out in a worker process: never in the bot's own, one question a player at a
time, and a failure there is a sentence for the player and a traceback in the log."""

from __future__ import annotations

import asyncio
import json
import logging
import os

import pytest

from bot.app.access import campaign_and_player
from bot.app.odds import BUSY, FAILED, POOL, OddsCommands
from bot.app.odds_work import OddsJob, Refused, work_out
from bot.app.replies import Refusal
from bot.app.workers import WorkerPool
from rules.core import Action
from tests.support import RED, caller, ssg_table

SHOT = {"shooter": "Rossi", "target": "Bo", "range": 20, "los": "clear"}


async def test_the_worker_is_another_process_and_answers_the_odds(app, forced) -> None:
    await ssg_table(app, forced)
    await app.act(caller(RED, "Rita"), "ssg", "next", {}, "/ssg next")
    reply = await app.odds(caller(RED, "Rita"), "ssg", "shoot", SHOT)
    assert "\n16.7% — Bo out" in reply.cards[0].description and reply.ephemeral
    assert POOL.started
    assert await POOL.run(os.getpid) != os.getpid()


async def test_the_work_sent_is_plain_data_and_a_refusal_comes_back_as_a_sentence(app, forced) -> None:
    await ssg_table(app, forced)
    game = await _game_state(app)
    job = OddsJob("ssg", None, game, Action("shoot", "red", {**SHOT, "range": 99}))
    found = await POOL.run(work_out, job)
    assert isinstance(found, Refused) and "only in the shooting phase" in found.sentence


async def test_a_state_sent_as_its_saved_json_text_gives_the_same_odds(app, forced) -> None:
    """A large state goes to the worker as the text it was read as (no pickling on the event loop)."""
    await ssg_table(app, forced)
    await app.act(caller(RED, "Rita"), "ssg", "next", {}, "/ssg next")
    game = await _game_state(app)
    action = Action("shoot", "red", SHOT)
    as_data = work_out(OddsJob("ssg", None, game, action))
    as_text = work_out(OddsJob("ssg", None, json.dumps(game), action))
    assert not isinstance(as_text, Refused) and as_text == as_data


class HeldPool(WorkerPool):
    """A pool whose job waits until the test lets it go."""

    def __init__(self) -> None:
        super().__init__("held")
        self.go = asyncio.Event()
        self.jobs = 0

    async def run(self, fn, *args, group=None, seconds=None):
        self.jobs += 1
        await self.go.wait()
        return fn(*args)


async def test_one_player_cannot_queue_a_second_question(app, forced) -> None:
    await ssg_table(app, forced)
    await app.act(caller(RED, "Rita"), "ssg", "next", {}, "/ssg next")
    commands = OddsCommands(app.ctx, HeldPool())
    first = asyncio.create_task(commands.odds(caller(RED, "Rita"), "ssg", "shoot", SHOT))
    async with asyncio.timeout(30):  # the first question reaches the pool, or the test fails
        while not commands.pool.jobs:  # type: ignore[attr-defined]
            assert not first.done(), first.result()
            await asyncio.sleep(0.01)
    with pytest.raises(Refusal) as second:
        await commands.odds(caller(RED, "Rita"), "ssg", "shoot", SHOT)
    assert second.value.message == BUSY
    commands.pool.go.set()  # type: ignore[attr-defined]
    assert "Bo out" in (await first).cards[0].description
    again = await commands.odds(caller(RED, "Rita"), "ssg", "shoot", SHOT)  # the first one answered: free again
    assert again.cards[0].footer.startswith("exact")


async def test_an_error_in_the_worker_is_a_short_sentence_and_a_logged_traceback(
    app, forced, monkeypatch, caplog
) -> None:
    await ssg_table(app, forced)
    commands = OddsCommands(app.ctx)

    async def broken(*args):
        return OddsJob("ssg", None, {"not": "a state"}, Action("shoot", "red", SHOT))

    monkeypatch.setattr(commands, "_job", broken)
    with caplog.at_level(logging.ERROR, logger="skirmish_gm.odds"), pytest.raises(Refusal) as refused:
        await commands.odds(caller(RED, "Rita"), "ssg", "shoot", SHOT)
    assert refused.value.message == FAILED
    [record] = [r for r in caplog.records if r.name == "skirmish_gm.odds"]
    assert record.exc_info is not None and "ssg shoot" in record.getMessage()
    assert not commands._asking  # the player may ask again


async def _game_state(app) -> object:
    async with app.store.transaction() as u:
        campaign, _ = await campaign_and_player(u, caller(RED, "Rita"))
        game = await u.games.in_progress(campaign.id)
    return game.state


async def test_the_odds_of_an_ssg_melee_are_answered(app, forced) -> None:
    """A duel rolls again on a tie: /odds once never answered it (its probe's fixed dice tied for
    ever, and every later question of every channel queued behind it)."""
    await ssg_table(app, forced)
    await app.act(
        caller(RED, "Rita"), "ssg", "move", {"figure": "Rossi", "distance": 2.0, "contact": "Bo"}, "/ssg move"
    )
    await app.act(caller(RED, "Rita"), "ssg", "next", {}, "/ssg next")
    async with asyncio.timeout(120):
        reply = await app.odds(caller(RED, "Rita"), "ssg", "melee", {"fighter": "Rossi", "opponent": "Bo"})
    lines = reply.cards[0].description.splitlines()
    assert lines[1:] == ["50.0% — Bo out", "50.0% — Rossi out"] and reply.ephemeral
