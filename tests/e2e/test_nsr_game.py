"""NSR through the loopback Discord: cards turned on the secure deck, each one a choice of unit for
the side its colour names, answered by button by that side's player (and refused to the other)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.app.replies import Caller
from bot.store.schema import DecisionRecord, Game
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.seeding import new_table, seeded_app
from tests.orm import orm

STEPS = 24


async def test_two_players_choose_their_units_by_button(fake: FakeDiscord, bot: Any) -> None:
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    guild = fake.guild_of(table.channel).id

    def as_caller(user) -> Caller:
        return Caller(user.id, user.display_name, guild, table.channel.id)

    await app.campaign_new(as_caller(table.gm), "Talavera", "nsr", "table")
    for user, side in ((table.red, "French"), (table.blue, "Allied")):
        asked = await app.campaign_join(as_caller(user), side)
        await app.decide(as_caller(table.gm), "approve", asked.decision.decision_id)
    units = {
        table.red: [("1er Ligne", "line", "figures=6"), ("Chasseurs", "mounted", "figures=3")],
        table.blue: [("33rd Foot", "infantry", "figures=6"), ("Militia", "militia", "figures=2 officer=no")],
    }
    for user, entries in units.items():
        for name, kind, stats in entries:
            added = await fake.slash(user, "roster add", name=name, kind=kind, stats=stats)
            assert not added.ephemeral, added.text
    last = await fake.slash(table.gm, "game start")
    assert not last.ephemeral
    player = {"French": table.red, "Allied": table.blue}
    chosen_by = set()
    refused = 0
    for _ in range(STEPS):
        async with orm(app.store.db) as s:
            game = await s.scalar(select(Game).order_by(Game.id.desc()))
            decision = await s.scalar(
                select(DecisionRecord).where(DecisionRecord.status == "open").order_by(DecisionRecord.id.desc())
            )
        if game.status != "active":
            break
        if decision is None:
            side = "French" if any(u in last.text for u in ("1er Ligne", "Chasseurs")) else "Allied"
            last = await fake.slash(player[side], "nsr hold")
            continue
        decider = player[decision.decider]
        custom_id = f"decision:{decision.id}:0"
        if last.message is not None and custom_id in last.message.custom_ids:
            if not refused:
                other = table.blue if decider is table.red else table.red
                wrong = await fake.click(other, last, custom_id)
                assert wrong.ephemeral and "not your decision" in wrong.text
                refused += 1
            last = await fake.click(decider, last, custom_id)
            chosen_by.add(decision.decider)
        else:
            last = await fake.slash(decider, "decide", choice=decision.choices[0]["value"])
        if not last.ephemeral and "hold" not in last.text:
            # the unit named acts: it holds (the card's unit may also move or fire; holding is always legal)
            side = decision.decider
            held = await fake.slash(player[side], "nsr hold")
            if not held.ephemeral:
                last = held
    assert chosen_by == {"French", "Allied"}, chosen_by  # both players chose units by button
    assert refused == 1
    status = await fake.slash(table.gm, "game status")
    assert "1er Ligne" in status.text and "Militia" in status.text
    await app.store.db.close()
