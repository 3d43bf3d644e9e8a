"""Issue 26, "one player can bend the game", through the loopback Discord with the real bot process:
a game master who plays a side asks for her undo like any player, a campaign import lists every
setting it changes and bounds every number, and a map feature's name follows the name rules."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from bot.store.schema import Game
from rules import get_engine
from tests.e2e.fake_discord import FakeDiscord, InteractionResult
from tests.e2e.seeding import new_table, seed_ssg, seeded_app
from tests.orm import orm


def refusal(result: InteractionResult) -> str:
    """The words of a private refusal."""
    assert result.type == 4 and result.ephemeral, result
    [embed] = result.embeds
    assert embed["title"] == "Not done", embed
    return str(embed["description"])


def decision_buttons(result: InteractionResult) -> list[str]:
    assert result.message is not None
    return [c for c in result.message.custom_ids if c.startswith("decision:")]


async def test_a_game_master_who_plays_a_side_cannot_take_her_own_shot_back_alone(fake: FakeDiscord, bot: Any) -> None:
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    await seed_ssg(app, fake, table)
    async with orm(app.store.db) as s:
        state = (await s.scalar(select(Game))).state
    await app.store.db.close()
    engine = get_engine("ssg", None)
    first = engine.whose_turn(engine.load_state(state if isinstance(state, dict) else json.loads(state)))
    assert first in ("red", "blue")
    other, opponent = ("blue", table.blue) if first == "red" else ("red", table.red)
    shooter, target = ("Rossi", "Big Jim") if first == "red" else ("Big Jim", "Rossi")

    joined = await fake.slash(table.gm, "campaign join", side=first)
    assert not joined.ephemeral and "asked of the other side" in joined.text, joined.text
    assert not (await fake.slash(table.gm, "ssg next")).ephemeral
    shot = await fake.slash(table.gm, "ssg shoot", shooter=shooter, target=target, range=5.0, los="clear")
    assert not shot.ephemeral and shot.message is not None and shot.message.field_values("Dice"), shot.text

    asked = await fake.slash(table.gm, "game undo")
    assert not asked.ephemeral and "Undo asked" in asked.titles, asked.text
    assert f"<@{opponent.id}>" in asked.content
    allow, _refuse = decision_buttons(asked)
    for _ in range(3):  # her own clicks and requests change nothing
        assert "only " + other + "'s player may allow it" in refusal(await fake.click(table.gm, asked, allow))
        assert "already waits for " + other in refusal(await fake.slash(table.gm, "game undo"))

    allowed = await fake.click(opponent, asked, allow)
    assert allowed.type == 7 and asked.content.startswith(f"Decided by {opponent.display_name}: **Allow**")
    [outcome] = await allowed.wait_followups(1, timeout=30)
    assert not outcome.ephemeral and [e["title"] for e in outcome.embeds] == ["Undone"], outcome.text
