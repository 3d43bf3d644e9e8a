"""The next move a tap away: "your move" and /game status carry the ruleset's quick move as a
button, a select of the figures that may still act, and name the commands to type; a press goes
through the typed command's own path, a pick answers privately with what to type for that figure."""

from __future__ import annotations

from bot.adapter.client import SkirmishBot
from bot.adapter.next_moves import PICK, NextMoveButton, ReadySelect
from bot.app.service import App
from bot.dice import ForcedDice
from tests.cogs.test_cogs import invoke
from tests.cogs.test_yasg_cogs import yasg_duel
from tests.support import BLUE, GM, RED, caller, fake_interaction, join, ssg_campaign

HINT = "Or type /ssg move (/help topic:ssg)."  # the movement phase: no shots yet


async def _ssg(bot: SkirmishBot, app: App, forced: ForcedDice) -> None:
    await app.campaign_new(caller(GM, "Gina"), "Test", "ssg", "table")
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")
    for n in range(6):
        await app.roster_add(caller(RED, "Rita"), f"R{n}", "rifle")
        await app.roster_add(caller(BLUE, "Bob"), f"B{n}", "rifle")


async def _ssg_started(bot: SkirmishBot, app: App, forced: ForcedDice) -> None:
    """The table of :func:`_ssg`, its battle started: red first, in the movement phase."""
    await _ssg(bot, app, forced)
    forced.push_dice([5, 2])
    await invoke(bot, "game start", GM, "Gina")


async def press(bot: SkirmishBot, user: int, custom_id: str):
    """What discord.py does on a click: match the template, build the item, run its callback."""
    match = NextMoveButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    interaction = fake_interaction(bot, user)
    item = await NextMoveButton.from_custom_id(interaction, NextMoveButton("x", "y").item, match)
    await item.callback(interaction)
    return interaction


async def test_your_move_and_status_offer_the_quick_move_and_what_to_type(
    bot: SkirmishBot, app: App, forced: ForcedDice
) -> None:
    await _ssg(bot, app, forced)
    forced.push_dice([5, 2])  # red first
    started = await invoke(bot, "game start", GM, "Gina")
    [sent] = started.sent
    assert "red: your move." in sent["content"] and sent["content"].endswith(HINT)
    assert sent["content"].count("/help") == 1  # the hint's pointer, not a second line saying it again
    button, select = sent["view"].children
    assert (button.custom_id, button.item.label) == ("next:ssg:next", "/ssg next")
    assert select.custom_id == "ready:ssg" and select.item.placeholder == PICK
    assert [(o.value, o.description) for o in select.item.options] == [(f"R{n}", "rifle") for n in range(6)]

    await invoke(bot, "ssg move", RED, "Rita", figure="R0", distance=4.0)
    status = await invoke(bot, "game status", BLUE, "Bob")
    [shown] = status.sent
    assert [c.custom_id for c in shown["view"].children] == ["next:ssg:next", "ready:ssg"] and HINT in shown["content"]
    assert [o.value for o in shown["view"].children[1].item.options] == [f"R{n}" for n in range(1, 6)]


async def pick(bot: SkirmishBot, user: int, custom_id: str, value: str):
    """What discord.py does on a pick in a select: match, build the item, refresh its values, call back."""
    match = ReadySelect.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    interaction = fake_interaction(bot, user)
    item = await ReadySelect.from_custom_id(interaction, ReadySelect("x").item, match)
    item._refresh_state(interaction, {"custom_id": custom_id, "component_type": 3, "values": [value]})
    await item.callback(interaction)
    return interaction


async def test_a_pick_shows_privately_what_to_type_for_that_figure(
    bot: SkirmishBot, app: App, forced: ForcedDice
) -> None:
    await _ssg_started(bot, app, forced)
    picked = await pick(bot, RED, "ready:ssg", "R3")
    [sent] = picked.sent
    assert sent["ephemeral"] is True
    assert sent["content"] == (
        "**R3**: `/ssg move figure:R3 …`\n`/ssg shoot shooter:R3 target:… …`\nSee `/help topic:ssg` for every option."
    )
    gone = await pick(bot, RED, "ready:nope", "R3")
    assert gone.sent[0]["ephemeral"] is True and gone.sent[0]["content"] == "Nothing to type for that pick here."


async def test_a_press_is_the_typed_command(bot: SkirmishBot, app: App, forced: ForcedDice) -> None:
    await _ssg_started(bot, app, forced)

    wrong = await press(bot, BLUE, "next:ssg:next")  # not blue's turn: refused privately, as typed
    [refused] = wrong.sent
    assert refused["ephemeral"] is True and refused["embeds"][0].title == "Not done"

    done = await press(bot, RED, "next:ssg:next")
    [sent] = done.sent
    assert "melee" in sent["embeds"][0].description or "shooting" in sent["embeds"][0].description
    async with app.store.transaction() as u:
        campaign = await u.campaigns.here(caller(GM).guild_id, caller(GM).channel_id)
        assert campaign is not None
        game = await u.games.in_progress(campaign.id)
        assert game is not None and game.state["phase"] != "movement"
        [entry] = [e for e in await u.log.entries(game.id) if e.command.startswith("/ssg next")]
        assert entry.user_id == RED


async def test_a_button_for_a_command_that_is_not_there_says_so(bot: SkirmishBot) -> None:
    gone = await press(bot, RED, "next:ssg:nothing")
    gone.response.send_message.assert_awaited_once()
    assert gone.response.send_message.await_args.kwargs["ephemeral"] is True


async def test_while_the_sides_deploy_the_hint_offers_placing_not_the_turns_end(
    bot: SkirmishBot, app: App, forced: ForcedDice
) -> None:
    """On the map the battle begins with the deployment: no /ssg next (it would set out the side's
    figures unasked) and no shots, only /map place and /map deploy."""
    await ssg_campaign(app)
    forced.push_dice([5, 2])
    started = await invoke(bot, "game start", GM, "Gina")
    [sent] = started.sent
    assert sent["content"].endswith("red: your move.\nOr type /map place, /map deploy (/help topic:ssg).")
    assert "view" not in sent  # no quick move fits, and no figure acts before the battle begins


async def test_in_yasgs_movement_phase_the_hint_lists_no_set_up_commands(
    bot: SkirmishBot, app: App, forced: ForcedDice
) -> None:
    await yasg_duel(bot, app, forced)
    status = await invoke(bot, "game status", RED, "Rita")
    [sent] = status.sent
    assert sent["content"] == "Or type /yasg move, /yasg face, /yasg load, /yasg look (/help topic:yasg)."
    assert [c.custom_id for c in sent["view"].children] == ["next:yasg:next", "ready:yasg"]


async def test_an_ssg_melee_with_pairs_in_contact_offers_the_melee_not_next(
    bot: SkirmishBot, app: App, forced: ForcedDice
) -> None:
    await _ssg_started(bot, app, forced)
    await invoke(bot, "ssg move", RED, "Rita", figure="R0", distance=4.0, contact="B0")
    await invoke(bot, "ssg next", RED, "Rita")
    status = await invoke(bot, "game status", RED, "Rita")
    [sent] = status.sent
    assert sent["content"] == "Or type /ssg melee (/help topic:ssg)."
    assert "view" not in sent
