"""/game undo's request through the cogs and the decision buttons, and an interaction delivered
twice: applied once, answered once."""

from __future__ import annotations

import logging

from sqlalchemy import func, select

from bot.adapter.delivery import DecisionButton
from bot.store.schema import ActionRecord
from tests.cogs.test_cogs import invoke
from tests.orm import orm
from tests.support import BLUE, GM, RED, STRANGER, caller, fake_interaction, join, medieval_duel, ssg_table

TEAMMATE = 5


async def press(bot, custom_id: str, user: int, name: str, label: str = "…"):
    """A click on a decision button, as discord.py hands it to the cog's DynamicItem."""
    _, decision_id, index = custom_id.split(":")
    interaction = fake_interaction(bot, user, name)
    await DecisionButton(int(decision_id), int(index), label).callback(interaction)
    return interaction


async def test_a_missed_shot_is_undone_only_when_blue_presses_allow(bot, app, forced) -> None:
    await ssg_table(app, forced)
    await join(app, TEAMMATE, "Ria", "red")
    await invoke(bot, "ssg next", RED, "Rita")
    forced.push_dice([1])
    await invoke(bot, "ssg shoot", RED, "Rita", shooter="Rossi", target="Bo", range=5.0, los="clear")
    asked = await invoke(bot, "game undo", RED, "Rita")
    [sent] = asked.sent
    assert sent["ephemeral"] is False and sent["content"].startswith(f"<@{BLUE}> blue: Rita asks to take back")
    assert [u.id for u in sent["allowed_mentions"].users] == [BLUE]
    allow, refuse = (button.custom_id for button in sent["view"].children)
    assert allow.endswith(":0") and refuse.endswith(":1")

    for user, name in ((TEAMMATE, "Ria"), (STRANGER, "Sam")):
        wrong = await press(bot, allow, user, name)
        [said] = wrong.sent
        assert said["ephemeral"] is True
        assert said["embeds"][0].description in (
            "Only blue's player or the game master may answer this request.",
            "You are not in this campaign: join it with /campaign join.",
        )
        wrong.response.edit_message.assert_not_called()

    allowed = await press(bot, allow, BLUE, "Bob", "Allow")
    allowed.response.edit_message.assert_awaited_once()
    assert allowed.response.edit_message.await_args.kwargs["content"] == "Decided by Bob: **Allow**"
    [undone] = allowed.sent
    assert undone["embeds"][0].title == "Undone" and "/ssg shoot" in undone["embeds"][0].description


async def test_the_same_interaction_delivered_twice_is_applied_once_and_answered_once(bot, app, forced, caplog) -> None:
    await ssg_table(app, forced)
    first = await invoke(bot, "ssg move", RED, "Rita", figure="Rossi", distance=2.0)
    repeat = fake_interaction(bot, RED, "Rita")
    repeat.id = first.id  # Discord delivers the same interaction again
    command = first.command
    repeat.command = command
    with caplog.at_level(logging.INFO, logger="skirmish_gm.delivery"):
        await command.callback(command.binding, repeat, figure="Rossi", distance=2.0)
    assert len(first.sent) == 1 and repeat.sent == []
    repeat.response.send_message.assert_not_called()
    assert f"interaction {first.id} was delivered again" in caplog.text
    async with orm(app.store.db) as s:
        logged = await s.scalar(
            select(func.count()).select_from(ActionRecord).where(ActionRecord.interaction_id == first.id)
        )
    assert logged == 1


async def test_a_button_press_delivered_twice_is_applied_once_and_answered_once(bot, app, forced) -> None:
    """Medieval: the roll-off winner's "first" pressed once, delivered twice."""
    await medieval_duel(app)
    forced.push_dice([6, 1])
    started = await app.game_start(caller(GM, "Gina"))
    assert started.decision is not None
    first = await press(bot, f"decision:{started.decision.decision_id}:0", RED, "Rita")
    repeat = fake_interaction(bot, RED, "Rita")
    repeat.id = first.id
    await DecisionButton(started.decision.decision_id, 0).callback(repeat)
    assert len(first.sent) == 1 and repeat.sent == []
    repeat.response.edit_message.assert_not_called()
    async with orm(app.store.db) as s:
        answers = select(func.count()).select_from(ActionRecord).where(ActionRecord.interaction_id == first.id)
        assert await s.scalar(answers) == 1
