"""NSR on the bot's map through the application: /map place sets
a unit down with its facing and formation (A-NSR-33), /nsr form turns it in place and /nsr move
turns it as it sets off (A-NSR-39); a facing of "banana", of 10000 degrees or a formation that does
not exist is refused in one sentence with nothing changed, and a figure of another ruleset is
refused a facing or a formation."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app.service import App
from bot.dice import ForcedDice
from rules.core import RuleError
from tests.app.test_maps import game_state, gina, rita, ssg_campaign
from tests.support import BLUE, RED, caller, join

#: The card the first movement phase turns once every unit is on the map: black, for the French.
FIRST = "2S"


def bob() -> Any:
    return caller(BLUE, "Bob")


async def nsr_battle(app: App) -> None:
    """Talavera on the village: 1er Ligne (12, line) for the French, the 95th (8 rifles) for the
    Allies; the battle started, nothing placed."""
    await app.campaign_new(gina(), "Talavera", "nsr", "map")
    await app.map_new(gina(), "village")
    await join(app, RED, "Rita", "French")
    await join(app, BLUE, "Bob", "Allied")
    await app.roster_add(caller(RED, "Rita"), "1er Ligne", "line", stats="figures=12")
    await app.roster_add(caller(BLUE, "Bob"), "95th", "light", stats="figures=8 weapon=rifle")
    started = await app.game_start(gina())
    assert "/map place" in started.cards[-1].description


async def refused_unchanged(app: App, call: Any, match: str) -> None:
    """``call`` is refused with ``match`` in one short sentence; the game's state is as it was."""
    before = await game_state(app)
    with pytest.raises(RuleError, match=match) as caught:
        await call
    assert "\n" not in str(caught.value) and len(str(caught.value)) <= 300
    assert await game_state(app) == before


async def test_place_sets_a_unit_down_with_its_facing_and_formation(app: App, forced: ForcedDice) -> None:
    await nsr_battle(app)
    placed = await app.map_place(rita(), "1er Ligne", "10,4", facing="45", formation="march_column")
    assert "1er Ligne (French) stands at 10,4 in march column, facing 45°." in placed.cards[0].description
    state = await game_state(app)
    assert state["field"]["facing"]["1er Ligne"] == 45.0
    assert next(u for u in state["units"] if u["name"] == "1er Ligne")["formation"] == "march_column"
    forced.push_cards([FIRST])
    faced = await app.map_place(bob(), "95th", "20,32", facing="30,4")
    assert "95th (Allied) stands at 20,32 in open order, facing 289.7°." in faced.cards[0].description
    assert (await game_state(app))["phase"] == "movement"


@pytest.mark.parametrize(
    ("facing", "formation", "match"),
    [
        ("banana", None, r"Give 1er Ligne's facing in degrees \(0 east, 90 north\) or as a point to face\."),
        ("10000", None, "Give 1er Ligne's facing in degrees"),
        ("nan", None, "Give 1er Ligne's facing in degrees"),
        ("a,b", None, "Give where 1er Ligne faces as x,y"),
        (None, "banana", r"formation: is line, square, march_column, open_order, limbered or manhandled\."),
        (None, "limbered", r"1er Ligne \(line\) may form .*, not limbered\."),
    ],
)
async def test_a_bad_facing_or_formation_is_refused_and_nothing_placed(
    app: App, facing: str | None, formation: str | None, match: str
) -> None:
    await nsr_battle(app)
    await refused_unchanged(app, app.map_place(rita(), "1er Ligne", "10,4", facing, formation), match)
    assert (await game_state(app))["field"]["positions"] == {}


async def on_the_map(app: App, forced: ForcedDice) -> None:
    """Both units placed facing each other, the first card turned and the 1er Ligne chosen (the only
    French unit: taken at once)."""
    await nsr_battle(app)
    await app.map_place(rita(), "1er Ligne", "10,4")
    forced.push_cards([FIRST])
    await app.map_place(bob(), "95th", "30,32")


async def test_form_turns_the_unit_in_place(app: App, forced: ForcedDice) -> None:
    await on_the_map(app, forced)
    forced.push_cards(["KH"])
    formed = await app.act(rita(), "nsr", "form", {"facing": "0"}, "/nsr form facing:0")
    assert any("1er Ligne turns to face 0°." in e.text for e in formed.events)
    assert (await game_state(app))["field"]["facing"]["1er Ligne"] == 0.0


async def test_form_refuses_a_bad_facing_with_nothing_changed(app: App, forced: ForcedDice) -> None:
    await on_the_map(app, forced)
    for facing, match in (
        ("banana", "Give 1er Ligne's facing in degrees"),
        ("10000", "Give 1er Ligne's facing in degrees"),
        ("1,2,3", "Give where 1er Ligne faces as x,y"),
    ):
        await refused_unchanged(app, app.act(rita(), "nsr", "form", {"facing": facing}, "/nsr form"), match)
    await refused_unchanged(
        app,
        app.act(rita(), "nsr", "form", {"formation": "banana"}, "/nsr form"),
        "formation: is line, square, march_column, open_order, limbered or manhandled.",
    )


async def test_move_turns_the_unit_as_it_sets_off(app: App, forced: ForcedDice) -> None:
    await on_the_map(app, forced)
    forced.push_dice([2, 2])
    forced.push_cards(["KH"])
    params = {"to": "14,4", "facing": "0"}
    moved = await app.act(rita(), "nsr", "move", params, "/nsr move to:14,4 facing:0")
    assert any("moves 4″ to 14,4" in e.text for e in moved.events)
    state = await game_state(app)
    assert state["field"]["positions"]["1er Ligne"] == [14.0, 4.0] and state["field"]["facing"]["1er Ligne"] == 0.0


async def test_move_refuses_a_bad_facing_before_any_die(app: App, forced: ForcedDice) -> None:
    await on_the_map(app, forced)
    params = {"to": "14,4", "facing": "banana"}
    await refused_unchanged(app, app.act(rita(), "nsr", "move", params, "/nsr move"), "Give 1er Ligne's facing")


async def test_another_rulesets_figure_takes_no_facing_or_formation(app: App, forced: ForcedDice) -> None:
    await ssg_campaign(app)
    forced.push_dice([5, 2])
    await app.game_start(gina())
    for facing, formation, key in (("90", None, "facing"), (None, "line", "formation")):
        await refused_unchanged(
            app,
            app.map_place(rita(), "Rossi", "14,2", facing, formation),
            f"A figure is placed with figure: and at: only; {key}: is for a unit in formation.",
        )
