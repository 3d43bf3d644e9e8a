"""Answers that survive a crash, and one answer per interaction, through the loopback Discord with
the real bot process:

* a bot killed after it saved an action but before Discord took the answer says on restart, in the
  channel, what was applied, so nobody sends it again blindly;
* a repeated delivery of ``/odds``, a refusal, a read and a decision button gets exactly one
  response, and no traceback;
* an action whose answer missed Discord's 3 seconds (the interaction gone when it was sent) is
  said in the channel at once, and is owed no more;
* an action's answer goes at once while the drawing worker is stuck on a picture (stopped with
  SIGSTOP: slow for as long as the test says, with no clock involved); the pictures follow as
  edits once it draws again.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.store.schema import ActionRecord, Game
from rules import get_engine
from tests.e2e.attachments import picture_of
from tests.e2e.fake_discord import FakeDiscord, FakeInteraction, FakeMessage, InteractionResult
from tests.e2e.seeding import new_table, seed_ssg, seeded_app
from tests.e2e.test_reliability import seeded
from tests.orm import orm

#: Seconds granted to anything the bot does in these tests (the machine may be loaded).
GENEROUS = 60.0
NOTICE = "Applied, but never answered"
LATE = "Applied, but answered late"


async def has(flags: Any, interaction_id: int, owed: bool) -> bool:
    return (await flags).get(interaction_id) is owed


def notices(fake: FakeDiscord, title: str = NOTICE) -> list[FakeMessage]:
    """The bot's own posts in the channel that tell what was applied unanswered."""
    return [m for m in fake.messages_in(fake.channel) if m.interaction_user is None and title in m.text]


async def eventually(check: Any, what: str) -> None:
    """Until ``await check()`` is true (a database the bot writes after it answered)."""
    deadline = asyncio.get_running_loop().time() + GENEROUS
    while not await check():
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"waited {GENEROUS:g} s for {what}")
        await asyncio.sleep(0.05)


async def owed_flags(app: Any) -> dict[int, bool]:
    async with orm(app.store.db) as s:
        records = (await s.scalars(select(ActionRecord).where(ActionRecord.interaction_id.is_not(None)))).all()
    return {r.interaction_id: r.answer_owed for r in records}


async def test_a_bot_killed_after_saving_an_action_but_before_answering_it_says_so_on_restart(
    fake: FakeDiscord, bot: Any
) -> None:
    app, _table, mover, figures = await seeded(fake, bot)
    answered = await fake.slash(mover, "ssg move", figure=figures[0], distance=0.5)
    assert not answered.ephemeral and "moves 0.5″" in answered.text
    first = answered.interaction.id
    await eventually(lambda: has(owed_flags(app), first, False), "the answer noted as given")

    fake.holding_callbacks = True  # the answer leaves the bot and never reaches Discord
    lost = await fake.send_slash(mover, "ssg move", figure=figures[1], distance=1.25)
    await fake.wait_until(lambda: lost in fake.held_callbacks, GENEROUS, "the answer on its way")
    bot.process.kill()  # SIGKILL: the action is saved, its answer lost
    bot.process.wait()
    fake.let_go()
    await fake.wait_until(lambda: lost.expired, GENEROUS, "Discord giving up on the answer")
    assert {b.rule for b in fake.take_breaches()} == {"3-seconds"}  # "The application did not respond"
    assert (await owed_flags(app))[lost.id] is True

    await bot.start()
    await fake.wait_until(lambda: notices(fake), GENEROUS, "the notice of what was applied")
    [notice] = notices(fake)
    assert f"{mover.display_name}: /ssg move figure:{figures[1]} distance:1.25" in notice.text
    assert "moves 1.25″" in notice.text  # what came of it
    assert f"figure:{figures[0]}" not in notice.text  # answered in time: not told again
    assert not notice.pings  # nobody is pinged by it
    await fake.wait_until(lambda: "told channel" in bot.log_text(), GENEROUS, "the bot noting the notice was posted")
    assert await owed_flags(app) == {answered.interaction.id: False, lost.id: False}  # never told twice
    again = await fake.slash(mover, "ssg move", figure=figures[2], distance=0.5)
    assert not again.ephemeral  # play goes on
    await app.store.db.close()


async def test_an_answer_that_missed_discords_3_seconds_is_said_in_the_channel_at_once(
    fake: FakeDiscord, bot: Any
) -> None:
    app, _table, mover, figures = await seeded(fake, bot)
    fake.holding_callbacks = True  # the answer leaves the bot and reaches Discord too late
    late = await fake.send_slash(mover, "ssg move", figure=figures[0], distance=1.25)
    await fake.wait_until(lambda: late in fake.held_callbacks, GENEROUS, "the answer on its way")
    await fake.wait_until(lambda: late.expired, GENEROUS, "Discord giving up on the answer")
    fake.let_go()  # the answer arrives: the interaction is gone (10062)
    assert {b.rule for b in fake.take_breaches()} == {"3-seconds"}  # "The application did not respond"

    await fake.wait_until(lambda: notices(fake, LATE), GENEROUS, "the notice of what was applied")
    [notice] = notices(fake, LATE)
    assert f"{mover.display_name}: /ssg move figure:" in notice.text and "distance:1.25" in notice.text
    assert f"{figures[0]} moves 1.25″" in notice.text and "do not send it again" in notice.text
    assert not notice.pings
    await eventually(lambda: has(owed_flags(app), late.id, False), "the action noted as answered")
    assert notices(fake) == []  # nothing left for a restart to tell
    again = await fake.slash(mover, "ssg move", figure=figures[1], distance=0.5)
    assert not again.ephemeral  # play goes on
    await app.store.db.close()


async def delivered_again(fake: FakeDiscord, bot: Any, first: FakeInteraction) -> None:
    """Discord delivers ``first`` again, once it was answered; returns once the bot has seen the repeat."""
    await fake.session.dispatch("INTERACTION_CREATE", first.payload)
    repeat = f"interaction {first.id} was delivered again"
    await fake.wait_until(lambda: repeat in bot.log_text(), GENEROUS, f"the bot noticing the repeat of {first.label}")


async def test_a_repeated_delivery_of_odds_a_refusal_a_read_or_a_button_is_answered_once(
    fake: FakeDiscord, bot: Any
) -> None:
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    await seed_ssg(app, fake, table, battlefield="map")
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game))
    figures = [f["name"] for f in game.state["figures"] if f["side"] == "red"]
    foes = [f["name"] for f in game.state["figures"] if f["side"] == "blue"]
    newcomer = fake.add_user("newcomer")

    asked = await fake.slash(newcomer, "campaign join", side="red")
    [approve, _refuse] = [c for c in asked.message.custom_ids if c.startswith("decision:")]
    results = [
        await fake.slash(
            table.red, "odds", action=f'ssg shoot shooter:{figures[0]} target:"{foes[0]}"', timeout=GENEROUS
        ),
        await fake.slash(table.red, "game end"),  # a refusal: only the game master ends a battle
        await fake.slash(table.red, "game status", timeout=GENEROUS),
        await fake.slash(table.red, "game log"),
        await fake.slash(table.blue, "map show", timeout=GENEROUS),
        await fake.click(table.gm, asked, approve),
    ]
    assert results[0].interaction.response_type == 5  # /odds thinks first (deferred), then answers
    assert results[1].ephemeral and "Not done" in results[1].titles
    await results[5].wait_followups(1, GENEROUS)  # the button's message is updated, then the decision's result follows
    sent = {r.interaction.id: (len(r.interaction.attempts), len(r.followups)) for r in results}
    for result in results:
        await delivered_again(fake, bot, result.interaction)

    assert {r.interaction.id: (len(r.interaction.attempts), len(r.followups)) for r in results} == sent
    assert fake.take_breaches() == []  # no second response refused (40060)
    assert "Traceback" not in bot.log_text()
    await app.store.db.close()


def drawing_workers(bot_pid: int) -> list[int]:
    """The bot's worker processes (``multiprocessing`` spawned them), by their command lines."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == bot_pid and b"spawn_main" in command:
            found.append(int(entry.name))
    return found


async def test_an_action_is_answered_while_the_picture_before_it_is_still_being_drawn(
    fake: FakeDiscord, bot: Any
) -> None:
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    await seed_ssg(app, fake, table, battlefield="map")
    engine = get_engine("ssg")

    async def to_move() -> Any:
        async with orm(app.store.db) as s:
            game = await s.scalar(select(Game))
        return table.red if engine.whose_turn(engine.load_state(game.state)) == "red" else table.blue

    await fake.wait_until(lambda: drawing_workers(bot.process.pid), GENEROUS, "the drawing worker started")
    stuck = drawing_workers(bot.process.pid)
    for pid in stuck:
        os.kill(pid, signal.SIGSTOP)  # the worker draws nothing until the test lets it
    try:
        answers = []
        for _ in range(3):  # the movement phase ends (a picture), the shooting phase, the next side's movement
            sent = await fake.send_slash(await to_move(), "ssg next")
            await fake.wait_until(
                lambda i=sent: i.original is not None and not i.original.loading,
                GENEROUS,
                f"the answer to {sent.label}",
            )
            answers.append(InteractionResult(fake, sent))
        for answer in answers:
            assert answer.type == 4, answer  # answered, not deferred to wait for a picture
            assert "phase" in answer.text
        drawn = [a for a in answers if any(t.endswith("the battlefield") for t in a.titles)]
        assert [answers.index(a) for a in drawn] == [0, 2]  # the third's picture waits behind the first's
    finally:
        for pid in stuck:
            os.kill(pid, signal.SIGCONT)
    for answer in drawn:
        assert (await picture_of(fake, answer, timeout=GENEROUS)).startswith(b"\x89PNG\r\n\x1a\n")
        await fake.wait_until(
            lambda a=answer: any(e.get("image", {}).get("url") == "attachment://map.png" for e in a.embeds),
            GENEROUS,
            "the picture shown in the answer's card",
        )
    for answer in answers:
        await eventually(lambda a=answer: has(owed_flags(app), a.interaction.id, False), "every answer noted as given")
    assert fake.take_breaches() == []
    await app.store.db.close()
