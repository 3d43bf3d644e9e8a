"""/nsr through its cog on the bot's map: form and move take a
facing (A-NSR-39), move takes where the unit goes, a bad facing is refused privately in one
sentence with nothing changed; and every option a table of its own types (and the map measures or
reads) sends nothing unless typed, so that a battle on the map is never refused a default."""

from __future__ import annotations

import pytest
from discord import app_commands

from bot.adapter.client import SkirmishBot
from bot.app.commands.declared import parse_line, split_line
from bot.app.commands.table import command_table
from bot.app.service import App
from bot.dice import ForcedDice
from rules.core import RuleError
from rules.specs import read_params
from tests.app.test_maps import game_state
from tests.app.test_nsr_map_options import on_the_map
from tests.cogs.test_cogs import command, invoke
from tests.support import BLUE, GM, RED, caller, nsr_talavera

#: What a table of its own types and the bot measures or reads on its map (A-NSR-35 … A-NSR-41):
#: a default here would be sent as if typed, and the map refuses it.
TABLE_ONLY = {
    "going",
    "rough",
    "distance",
    "range",
    "range2",
    "class",
    "class2",
    "exposed",
    "exposed2",
    "reached",
    "cover",
    "uphill",
    "rear",
}


async def test_the_table_options_send_nothing_unless_typed(bot: SkirmishBot) -> None:
    group = bot.tree.get_command("nsr")
    assert isinstance(group, app_commands.Group)
    seen = set()
    for cmd in group.walk_commands():
        for param in cmd.parameters if isinstance(cmd, app_commands.Command) else []:
            if param.display_name in TABLE_ONLY:
                seen.add(param.display_name)
                assert not param.required and param.default is None, (cmd.qualified_name, param.display_name)
    assert seen == TABLE_ONLY
    move = {p.name for p in command(bot, "nsr move").parameters}
    assert {"to", "via", "toward", "distance", "facing"} <= move
    assert "facing" in {p.name for p in command(bot, "nsr form").parameters}


async def test_form_facing_turns_the_unit(bot: SkirmishBot, app: App, forced: ForcedDice) -> None:
    await on_the_map(app, forced)
    forced.push_cards(["KH"])
    turned = await invoke(bot, "nsr form", RED, "Rita", facing="0")
    [sent] = turned.sent
    assert sent["ephemeral"] is False and "1er Ligne turns to face 0°." in sent["embeds"][0].description
    assert (await game_state(app))["field"]["facing"]["1er Ligne"] == 0.0


async def test_a_bad_facing_is_refused_privately(bot: SkirmishBot, app: App, forced: ForcedDice) -> None:
    await on_the_map(app, forced)
    before = await game_state(app)
    for name, options in (
        ("nsr form", {"facing": "10000"}),
        ("nsr form", {"facing": "banana"}),
        ("nsr move", {"to": "14,4", "facing": "banana"}),
    ):
        refused = await invoke(bot, name, RED, "Rita", **options)
        [sent] = refused.sent
        assert sent["ephemeral"] is True
        assert sent["embeds"][0].description == (
            "Give 1er Ligne's facing in degrees (0 east, 90 north) or as a point to face."
        )
    assert await game_state(app) == before


async def test_move_goes_where_it_is_told_in_its_new_facing(bot: SkirmishBot, app: App, forced: ForcedDice) -> None:
    await on_the_map(app, forced)
    forced.push_dice([2, 2])
    forced.push_cards(["KH"])
    moved = await invoke(bot, "nsr move", RED, "Rita", to="14,4", facing="0")
    [sent] = moved.sent
    assert "moves 4″ to 14,4" in sent["embeds"][0].description
    state = await game_state(app)
    assert state["field"]["positions"]["1er Ligne"] == [14.0, 4.0] and state["field"]["facing"]["1er Ligne"] == 0.0


async def test_the_terminal_reads_the_same_options(bot: SkirmishBot) -> None:
    """The terminal parses lines against the declared commands: the new options, and a formation
    that does not exist refused in one sentence, by the command's own check, before anything runs."""
    commands = command_table()
    placed = parse_line(
        commands, split_line('/map place figure:"1er Ligne" at:"10,4" facing:45 formation:march_column')
    )
    assert placed.values == {"figure": "1er Ligne", "at": "10,4", "facing": "45", "formation": "march_column"}
    moved = parse_line(commands, split_line('/nsr move to:"14,4" facing:"30,20"'))
    assert moved.values == {"to": "14,4", "facing": "30,20"}
    banana = parse_line(commands, split_line('/map place figure:"1er Ligne" at:"10,4" formation:banana'))
    with pytest.raises(RuleError, match=r"^formation: is line, march_column, square"):
        read_params(banana.command.params, banana.values, "/map place")


async def nsr_table(app: App, forced: ForcedDice) -> None:
    """A table battle (battlefield:table): the 1er Ligne and the Chasseurs for the French, the 33rd
    Foot for the Allies; the first movement card (black) waits for the French to choose."""
    await nsr_talavera(app)
    forced.push_cards(["2S"])
    await app.game_start(caller(GM, "Gina"))


async def test_a_building_is_described_while_a_card_waits_and_the_card_still_waits(
    bot: SkirmishBot, app: App, forced: ForcedDice
) -> None:
    """Describing a building is no one's turn (the engine's free_actions): allowed to either side
    while the French choose a unit for 2♠, whose buttons still answer afterwards."""
    await nsr_table(app, forced)
    for user, name, building in ((BLUE, "Bob", "Mill"), (RED, "Rita", "Barn")):
        described = await invoke(bot, "nsr building", user, name, name=building, roof=4, storeys=2, windows=2)
        [sent] = described.sent
        assert sent["ephemeral"] is False
        assert sent["embeds"][0].description.startswith(f"{building}: 8 figures inside at most")
    state = await game_state(app)
    assert [b["name"] for b in state["buildings"]] == ["Mill", "Barn"] and state["pending"]["params"]["card"] == "2S"
    chosen = await invoke(bot, "decide", RED, "Rita", choice="1er Ligne")
    assert "French chooses 1er Ligne to move on 2♠." in chosen.sent[0]["embeds"][0].description


async def test_fire_at_a_table_reads_the_class_from_the_target(bot: SkirmishBot, app: App, forced: ForcedDice) -> None:
    """A-NSR-47 through Discord: /nsr fire with a range only reads the 33rd Foot's line as class I."""
    await nsr_table(app, forced)
    for user, name, unit, card in (
        (RED, "Rita", "1er Ligne", "3S"),
        (RED, "Rita", None, "4H"),  # the Chasseurs are the only French unit left: taken at once
        (BLUE, "Bob", None, "5S"),  # the 33rd Foot, the only Allied unit
    ):
        if unit is not None:
            await invoke(bot, "decide", user, name, choice=unit)
        forced.push_cards([card])
        held = await invoke(bot, "nsr hold", user, name)
        assert held.sent[0]["ephemeral"] is False, held.sent[0]["embeds"][0].description
    await invoke(bot, "decide", RED, "Rita", choice="1er Ligne")
    forced.push_dice([4])
    forced.push_cards(["3C", "6S"])
    fired = await invoke(bot, "nsr fire", RED, "Rita", target="33rd Foot", range=10.0)
    [sent, *_] = fired.sent
    assert "5 muskets, class I, 10″; die 4 reads column 2-5: 1/4 → 1 hit (class I: line, close order)." in (
        sent["embeds"][0].description
    )
