"""Issue 26, "one player can bend the game", through the loopback Discord with the real bot process:
a game master who plays a side asks for her undo like any player, a campaign import lists every
setting it changes and bounds every number, and a map feature's name follows the name rules."""

from __future__ import annotations

import json
from typing import Any

import yaml
from sqlalchemy import select

from bot.app.replies import Caller
from bot.store.schema import Game
from rules import get_engine
from tests.e2e.attachments import AttachmentHost, Upload, slash_with_files
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


def map_yaml(name: str) -> bytes:
    return yaml.safe_dump(
        {
            "name": "Hand made",
            "table": {"width": 24, "height": 24},
            "features": [
                {"kind": "wood", "name": "the copse", "area": [[4, 4], [8, 4], [8, 8]]},
                {"kind": "wood", "name": name, "area": [[12, 12], [16, 12], [16, 16]]},
            ],
            "zones": {"red": [[0, 0], [24, 0], [24, 3], [0, 3]], "blue": [[0, 21], [24, 21], [24, 24], [0, 24]]},
        }
    ).encode()


async def test_feature_names_follow_the_name_rules(fake: FakeDiscord, bot: Any) -> None:
    gina = fake.add_user("Gina")
    assert not (await fake.slash(gina, "campaign new", name="Iron Coast", ruleset="ssg")).ephemeral
    assert not (await fake.slash(gina, "map new", scenario="crossroads")).ephemeral
    role = fake.guild.id  # @everyone's role
    for name, why in (
        (f"<@&{role}> mill", "role mention"),
        ("**the mill**", "asterisk"),
        ("the\u200bmill", "zero-width space"),
        ("the \u202emill", "right-to-left override"),
        ("the Сopse", "looks like “the copse”"),
    ):
        added = await fake.slash(gina, "map feature add", kind="wood", points="30,30 34,30 34,34", name=name)
        assert why in refusal(added) and not added.message.pings  # type: ignore[union-attr]
    async with AttachmentHost() as cdn:
        for name, why in (("the\u200bmill", "zero-width space"), ("the Сopse", "looks like “the copse”")):
            imported = await slash_with_files(fake, cdn, gina, "map import", file=Upload("m.yaml", map_yaml(name)))
            assert imported.ephemeral and "features\\[1\\].name:" in imported.text and why in imported.text
    shown = await fake.slash(gina, "map show")
    assert "the copse" in shown.text and "mill" not in shown.text  # nothing of the refused ones was kept


async def test_a_campaign_import_lists_every_setting_it_changes_and_bounds_its_numbers(
    fake: FakeDiscord, bot: Any
) -> None:
    gina = fake.add_user("Gina")
    assert not (await fake.slash(gina, "campaign new", name="Iron Coast", ruleset="ssg")).ephemeral
    head = {"skirmish_gm": "campaign", "version": 1, "ruleset": "ssg"}
    async with AttachmentHost() as cdn:
        kept = await slash_with_files(
            fake,
            cdn,
            gina,
            "campaign import",
            file=Upload("c.yaml", yaml.safe_dump({**head, "settings": {"battles_before": 2}}).encode()),
        )
        assert not kept.ephemeral and kept.field_values("Settings") == ["battles\\_before: 2"], kept.text
        info = await fake.slash(gina, "campaign info")
        assert info.field_values("Battlefield") == ["the map (none drafted yet)"]  # the file left it out: kept

        moved = await slash_with_files(
            fake,
            cdn,
            gina,
            "campaign import",
            file=Upload("c.yaml", yaml.safe_dump({**head, "settings": {"battlefield": "table"}}).encode()),
        )
        assert moved.field_values("Settings") == ["battlefield: map → table"]

        huge = yaml.safe_dump({**head, "settings": {"battles_before": 2147483647}}).encode()
        refused = await slash_with_files(fake, cdn, gina, "campaign import", file=Upload("c.yaml", huge))
        assert refused.ephemeral and (
            "settings.battles\\_before: must be a whole number from 0 to 100000, not “2147483647”" in refused.text
        )


async def test_yasg_once_figures_stand_on_the_board_only_the_game_master_changes_it(
    fake: FakeDiscord, bot: Any
) -> None:
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    guild = fake.guild_of(table.channel).id

    def as_caller(user: Any) -> Caller:
        return Caller(user.id, user.display_name, guild, table.channel.id)

    await app.campaign_new(as_caller(table.gm), "Hougoumont", "yasg")
    for user, side in ((table.red, "british"), (table.blue, "french")):
        asked = await app.campaign_join(as_caller(user), side)
        await app.decide(as_caller(table.gm), "approve", asked.decision.decision_id)
        await app.roster_add(as_caller(user), f"Leader {side}", "A", stats="leader=yes")
        await app.roster_add(as_caller(user), f"Man {side}", "B")
    await app.game_start(as_caller(table.gm))
    squares = {"british": ("C2", "D2"), "french": ("C7", "D7")}
    for user, side in ((table.red, "british"), (table.blue, "french")):
        for name, square in zip((f"Leader {side}", f"Man {side}"), squares[side], strict=True):
            params = {"figure": name, "square": square}
            await app.act(as_caller(user), "yasg", "place", params, f"/yasg place figure:{name} square:{square}")
    await app.store.db.close()

    built = await fake.slash(table.red, "yasg terrain", squares="C7", kind="building")
    assert "Only the game master may change the terrain once figures stand on the board" in refusal(built)
    walled = await fake.slash(table.red, "yasg edge", squares="C7:D7", side="s", kind="wall")
    assert "Only the game master may put up" in refusal(walled)
    assert not (await fake.slash(table.gm, "yasg terrain", squares="A1", kind="wood")).ephemeral
