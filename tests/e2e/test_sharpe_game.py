"""Sharpe's Skirmish through the loopback Discord: six characters a side in batting order, melee
with the defender's choice answered by button (and refused to anyone else), played on Discord's
secure dice until a side falls or the bound limit, then the game master ends it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.app.replies import Caller
from bot.store.schema import DecisionRecord, Game
from rules import get_engine
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.seeding import new_table, seeded_app
from tests.orm import orm

BRITISH = [
    ("Sharpe", "rifle_officer", "I=6 D=5 S=5 C=6 F=10"),
    ("Harper", "rifle_sergeant", "I=5 D=4 S=6 C=5 F=10"),
    ("Harris", "rifleman", "I=4 D=4 S=3 C=3 F=9"),
    ("Hagman", "rifleman", "I=3 D=3 S=3 C=3 F=11"),
    ("Perkins", "rifleman", "I=2 D=4 S=3 C=3 F=8"),
    ("Cooper", "rifleman", "I=1 D=3 S=4 C=3 F=8"),
]
FRENCH = [
    ("Leroux", "officer", "I=5 D=4 S=4 C=5 F=7"),
    ("Dubois", "voltigeur", "I=4 D=3 S=3 C=3"),
    ("Martin", "voltigeur", "I=3 D=3 S=3 C=3"),
    ("Bernard", "chasseur", "I=3 D=3 S=3 C=3"),
    ("Girard", "chasseur", "I=2 D=3 S=3 C=3"),
    ("Lefevre", "sergeant", "I=2 D=3 S=3 C=4"),
]
MAX_STEPS = 150


async def test_six_a_side_melee_decided_by_buttons(fake: FakeDiscord, bot: Any) -> None:
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    guild = fake.guild_of(table.channel).id

    def as_caller(user) -> Caller:
        return Caller(user.id, user.display_name, guild, table.channel.id)

    await app.campaign_new(as_caller(table.gm), "Talavera", "sharpe", "table")
    for user, side in ((table.red, "british"), (table.blue, "french")):
        asked = await app.campaign_join(as_caller(user), side)
        await app.decide(as_caller(table.gm), "approve", asked.decision.decision_id)
    for user, men in ((table.red, BRITISH), (table.blue, FRENCH)):
        for name, kind, stats in men:
            added = await fake.slash(user, "roster add", name=name, kind=kind, stats=stats)
            assert not added.ephemeral, added.text
    started = await fake.slash(table.gm, "game start")
    assert not started.ephemeral and started.field_values("Dice")
    engine = get_engine("sharpe")
    player = {"british": table.red, "french": table.blue}

    async def game():
        async with orm(app.store.db) as s:
            row = await s.scalar(select(Game).order_by(Game.id.desc()))
            decision = await s.scalar(
                select(DecisionRecord).where(DecisionRecord.status == "open").order_by(DecisionRecord.id.desc())
            )
        return row, engine.load_state(row.state), decision

    last, attacked, by_button, refused, offered = started, set(), 0, 0, 0
    for _ in range(MAX_STEPS):
        row, state, decision = await game()
        if row.status != "active" or state.over:
            break
        if decision is not None:
            decider = player[decision.decider]
            other = table.blue if decider is table.red else table.red
            custom_id = f"decision:{decision.id}:0"
            if last.message is not None and custom_id in last.message.custom_ids:
                offered += 1
                if not refused:
                    wrong = await fake.click(other, last, custom_id)
                    assert wrong.ephemeral and "not your decision" in wrong.text
                    refused += 1
                last = await fake.click(decider, last, custom_id)
                by_button += 1
            else:
                last = await fake.slash(decider, "decide", choice=decision.choices[0]["value"])
            continue
        me = next(c for c in state.characters if c.name == state.active)
        user = player[me.side]
        key = (state.bound, me.name)
        enemies = [c.name for c in state.characters if c.side != me.side and not c.out and not c.unconscious]
        if key not in attacked and enemies:
            attacked.add(key)
            await fake.slash(user, "sharpe move", distance=1.0, contact=enemies[0])
            last = await fake.slash(user, "sharpe attack", defender=enemies[0])
            continue
        last = await fake.slash(user, "sharpe done")
    row, state, _ = await game()
    if row.status == "active":
        ended = await fake.slash(table.gm, "game end")
        assert any(t.startswith("After the battle") for t in ended.titles)
    assert by_button == offered and refused == min(offered, 1)  # whether a defender had a choice is the dice's
    log = await fake.slash(table.red, "game log")
    assert log.ephemeral and "/sharpe attack" in log.text
    await app.store.db.close()
