"""What players do to a bot in real life: it is killed mid-burst, its socket drops, Discord
delivers an interaction twice, fifty players press at once. Nothing answered is lost, nothing is
half-applied, nothing is applied twice, and the log replays to the saved state."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import func, select

from bot.store.schema import ActionRecord, Game
from rules import get_engine
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.seeding import new_table, seed_ssg, seeded_app
from tests.orm import orm
from tests.replay import load_log, replay


async def seeded(fake: FakeDiscord, bot: Any):
    """A game in progress in the fake's channel; the player whose turn it is, and the app on the bot's file."""
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    await seed_ssg(app, fake, table)
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game))
    side = get_engine("ssg").whose_turn(get_engine("ssg").load_state(game.state))
    mover = table.red if side == "red" else table.blue
    figures = [f["name"] for f in game.state["figures"] if f["side"] == side]
    return app, table, mover, figures


async def log_and_state(app) -> tuple[list[ActionRecord], dict, dict]:
    engine = get_engine("ssg")
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game))
        records = await load_log(s, game)
    return records, game.state, engine.dump_state(replay(engine, records))


async def test_sigkill_in_a_burst_loses_nothing_answered_and_applies_nothing_by_half(
    fake: FakeDiscord, bot: Any
) -> None:
    app, _table, mover, figures = await seeded(fake, bot)
    sent = [
        await fake.send_slash(mover, "ssg move", figure=figures[n % len(figures)], distance=0.05) for n in range(60)
    ]
    await fake.wait_until(lambda: sum(i.responded_at is not None for i in sent) >= 15, 120, "15 answers")
    bot.process.kill()  # SIGKILL: no goodbye
    bot.process.wait()
    answered = {i.id for i in sent if i.responded_at is not None}
    await bot.start()

    records, saved, replayed = await log_and_state(app)
    logged = {r.interaction_id for r in records if r.interaction_id is not None}
    assert answered <= logged  # every answered action is still there
    assert replayed == saved  # and none is half-applied
    moves = [r for r in records if r.action and r.action.get("name") == "move"]
    assert (
        sum(f["moved"] for f in saved["figures"]) == round(0.05 * len(moves), 6)
        or abs(sum(f["moved"] for f in saved["figures"]) - 0.05 * len(moves)) < 1e-6
    )
    after = await fake.slash(mover, "ssg next")
    assert not after.ephemeral and "phase" in after.text  # play goes on
    fake.expire_unanswered()  # what Discord's deadline does to those in flight when it died
    assert all(b.rule == "3-seconds" for b in fake.take_breaches())
    await app.store.db.close()


async def test_a_dropped_gateway_resumes_and_answers_again(fake: FakeDiscord, bot: Any) -> None:
    app, _table, mover, figures = await seeded(fake, bot)
    await fake.drop_connection(code=4000)
    await fake.wait_resumed(1)
    result = await fake.slash(mover, "ssg move", figure=figures[0], distance=1.0)
    assert not result.ephemeral and "moves 1″" in result.text
    await app.store.db.close()


async def test_the_same_interaction_delivered_twice_is_applied_once(fake: FakeDiscord, bot: Any) -> None:
    app, _table, mover, figures = await seeded(fake, bot)
    first = await fake.send_slash(mover, "ssg move", figure=figures[0], distance=1.5)
    await fake.wait_until(lambda: first.responded_at is not None, 60, "the first answer")
    await fake.session.dispatch("INTERACTION_CREATE", first.payload)  # Discord delivers it again
    again = f"interaction {first.id} was delivered again"
    await fake.wait_until(lambda: again in bot.log_text(), 60, "the bot noticing the repeat")
    assert fake.take_breaches() == [] and len(first.attempts) == 1  # answered once: nothing sent for the repeat
    records, saved, replayed = await log_and_state(app)
    assert sum(1 for r in records if r.interaction_id == first.id) == 1
    assert next(f for f in saved["figures"] if f["name"] == figures[0])["moved"] == 1.5
    assert replayed == saved
    assert "Traceback" not in bot.log_text()
    await app.store.db.close()


async def test_fifty_actions_at_one_game_at_once_are_serialised(fake: FakeDiscord, bot: Any) -> None:
    app, _table, mover, figures = await seeded(fake, bot)
    sent = await asyncio.gather(
        *(fake.send_slash(mover, "ssg move", figure=figures[n % len(figures)], distance=0.08) for n in range(50))
    )
    await fake.wait_until(lambda: all(i.responded_at is not None for i in sent), 120, "fifty answers")
    records, saved, replayed = await log_and_state(app)
    ids = [r.interaction_id for r in records if r.interaction_id in {i.id for i in sent}]
    assert sorted(ids) == sorted(i.id for i in sent)  # each exactly once
    assert replayed == saved
    async with orm(app.store.db) as s:
        assert await s.scalar(select(func.count()).select_from(ActionRecord)) == len(records)
    await app.store.db.close()
