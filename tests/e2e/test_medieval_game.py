"""Four figures a side of the medieval system played to the end through the loopback Discord:
the roll-off winner chooses by button, then both players activate, charge and fight with slash
commands until one side has no figure left in action. Discord's dice are the secure ones, so the
game plays on whatever they say (with a bound on the turns)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.app.replies import Caller
from bot.store.schema import Game
from rules import get_engine
from rules.medieval.state import in_action
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.seeding import new_table, seeded_app
from tests.orm import orm

RED = [("Hugh", "Knight"), ("Walt", "Man at Arms"), ("Ned", "Man at Arms"), ("Roger", "Knight")]
BLUE = [("Olaf", "Viking Warrior"), ("Harald", "Viking Hero"), ("Sven", "Viking Warrior"), ("Bjorn", "Viking Warrior")]
MAX_TURNS = 60


async def test_four_figures_a_side_fight_to_the_end(fake: FakeDiscord, bot: Any) -> None:
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    guild = fake.guild_of(table.channel).id

    def as_caller(user) -> Caller:
        return Caller(user.id, user.display_name, guild, table.channel.id)

    await app.campaign_new(as_caller(table.gm), "Border feud", "medieval", "table")
    for user, side in ((table.red, "red"), (table.blue, "blue")):
        asked = await app.campaign_join(as_caller(user), side)
        await app.decide(as_caller(table.gm), "approve", asked.decision.decision_id)
    for user, figures in ((table.red, RED), (table.blue, BLUE)):
        for name, kind in figures:
            added = await fake.slash(user, "roster add", name=name, kind=kind)
            assert not added.ephemeral, added.text
    engine = get_engine("medieval")

    started = await fake.slash(table.gm, "game start")
    assert any("Roll-off" in line or "roll-off" in line for line in started.field_values("Dice"))
    [button] = started.components[0]["components"][:1]
    chooser = table.red if "red" in started.content else table.blue
    wrong = table.blue if chooser is table.red else table.red
    refused = await fake.click(wrong, started, button["custom_id"])
    assert refused.ephemeral and "not your decision" in refused.text
    chosen = await fake.click(chooser, started, button["custom_id"])
    assert not chosen.ephemeral

    async def state():
        async with orm(app.store.db) as s:
            game = await s.scalar(select(Game).order_by(Game.id.desc()))
        return engine.load_state(game.state)

    wounds = casualties = 0
    for _ in range(MAX_TURNS):
        current = await state()
        if engine.finished(current):
            break
        side = engine.whose_turn(current)
        player = table.red if side == "red" else table.blue
        for fig in [f for f in current.figures if f.side == side and in_action(f)]:
            now = await state()
            if engine.finished(now):
                break
            me = next(f for f in now.figures if f.name == fig.name)
            enemies = [f.name for f in now.figures if f.side != side and in_action(f)]
            if not in_action(me) or not enemies:
                continue
            titles = []  # a figure seriously wounded may collapse when activated, by any command
            if me.prone:
                titles += (await fake.slash(player, "medieval stand", figure=me.name)).titles
            engaged = any(me.name in pair for pair in now.contacts)
            if not engaged:
                moved = await fake.slash(player, "medieval move", figure=me.name, distance=0.0, engage=enemies[0])
                titles += moved.titles
            fought = await fake.slash(player, "medieval fight", figure=me.name)
            titles += fought.titles
            wounds += sum(t.startswith("🩸 Wound") for t in titles)
            casualties += sum(t.startswith("☠ Casualty") for t in titles)
            if any("wins" in t for t in titles):
                break
        if not engine.finished(await state()):
            ended = await fake.slash(player, "medieval endturn")
            assert not ended.ephemeral, ended.text
            casualties += sum(t.startswith("☠ Casualty") for t in ended.titles)
    final = await state()
    assert engine.finished(final), "no side won within the turn bound"
    assert engine.winner(final) in ("red", "blue")
    assert wounds >= 1 and casualties >= 1  # on any dice: a side is out of action only by wounds
    status = await fake.slash(table.red, "game status")
    assert "Game over" in status.text or "won" in status.text
    out_of_turn = await fake.slash(table.red, "medieval endturn")
    assert out_of_turn.ephemeral and "over" in out_of_turn.text
    await app.store.db.close()
