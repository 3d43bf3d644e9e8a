"""An NSR turn on the bot's map at the terminal (issue 17): a real process, a real SQLite file, the
shipped village, units placed whole in their zones, a move, a charge measured to its 2-inch stop,
a volley and a shot whose range and class the bot measures, the close combat in which the charged
militia give way and fall back 4D6 with the chasseurs taking their place, and the picture saved.
Cards and dice are forced just before the command that turns or rolls them (``/cards``, ``/dice``),
and each part runs in a new process on the same file: the battle goes on across the restarts.
The readings are A-NSR-32 onwards in docs/rules/nsr.md."""

from __future__ import annotations

import io
import itertools
import json
import sqlite3
from pathlib import Path

from PIL import Image

from rules import get_engine
from rules.battlefield import battlefield_of
from rules.battlefield.formations import footprint, on_table, overlaps
from rules.nsr import onmap
from rules.nsr.state import NsrState, unit_named
from tests.bot.test_console import events, play

SETUP = """\
/as Gina
/campaign new name:"Talavera" ruleset:nsr
/as Rita
/campaign join side:French
/as Gina
/decide choice:approve
/as Rita
/roster add name:"1er Ligne" kind:line stats:"figures=8"
/roster add name:Chasseurs kind:mounted stats:"figures=4"
/as Bob
/campaign join side:Allied
/as Gina
/decide choice:approve
/as Bob
/roster add name:Rifles kind:light stats:"figures=4 weapon=rifle"
/roster add name:Militia kind:militia stats:"figures=4 officer=no"
/as Gina
/map new scenario:village
/game start
/as Rita
/map place figure:"1er Ligne" at:"29,6"
/map place figure:Chasseurs at:"46,5"
/as Bob
/map place figure:Rifles at:"39.2,20"
/map place figure:Rifles at:"39.2,29.5"
/cards 2H
/map place figure:Militia at:"46,30"
"""
# The French set out along the south edge, the Allies along the north (the rifles are first put
# outside their zone). The last unit placed turns the first card, 2♥: the Allies choose.

TURN_ONE = """\
/as Bob
/decide choice:Militia
/dice 4,4
/cards 2S
/nsr move to:"46,22"
/as Rita
/decide choice:Chasseurs
/nsr charge target:Militia distance:14
/dice 3,3,2,2,2,2
/cards 3H
/nsr charge target:Militia
/as Bob
/nsr move to:"43,24"
/dice 6,6,5
/cards 3S
/nsr move via:"39.2,18" to:"34.4,16.6"
/as Rita
/dice 6,5
/cards 9S
/nsr move to:"29,17" facing:0
/cards 5S,6H,10S,QC,7S,8S,4S,JD
/nsr volley target:Rifles
/as Bob
/decide choice:Rifles
/dice 1
/cards 3D
/nsr fire target:"1er Ligne"
/nsr hold
/as Rita
/dice 4,2,8,1,7,7,10,1,8,5,3,3,2,2,1,1
/cards 3H
/nsr melee
"""
# Movement: the militia march 8" down the east edge; the chasseurs (mounted, line: 6D6) charge
# them, 15" between the fronts less the 2" stop, and 14 is rolled; the rifles (open order, 3D6)
# cannot stand in the stream, and go round by the barricade to the farmhouse's door; the 1er
# Ligne turns east as it sets off (facing:0) and comes up 11" between the ruined cottage and the
# farmhouse. Fire: the 1er Ligne's volley (7 muskets, the officer's pistol apart) at the rifles,
# class II in open order, kills one; the rifles' two answer at 3.4": 1 + 1, no hit. Close combat:
# the chasseurs close in (4, needs 1-8), the militia stand (2, needs 1-6), the chasseurs close the
# 2" to touch, win all four fights, and the militia, shaken, fall back 4D6 = 10" straight away
# from them; the chasseurs take their place. Morale: the militia, under half, hold (2).

TURN_TWO = """\
/as Bob
/decide choice:Rifles
/cards 4S
/nsr occupy building:"the farmhouse"
/as Rita
/decide choice:"1er Ligne"
/dice 1,1,3
/cards 5H
/nsr charge target:Rifles
/as Bob
/cards 5S
/nsr hold
/as Rita
/cards 6H
/nsr hold
/as Bob
/decide choice:Rifles
/dice 1
/cards 6S,7H
/nsr fire target:"1er Ligne"
/as Bob
/nsr hold
/as Rita
/dice 2,2,3,9,4,9,5,9,2,2,2,2,2,2,3,2
/cards 9C
/nsr melee
/map show focus:Chasseurs
"""
# The rifles go into the farmhouse by its door. The 1er Ligne charges them there: it turns to face
# the building's centre and is already within its 2" stop. The rifles fire from the door and the
# west window (2 rifles, 2.44"): no hit; the chasseurs' carbines reach 6", nothing is in reach, so no
# French unit is offered the next fire card, so the French pass at once (A-NSR-48; one legal answer). The fight for the farmhouse: the 1er Ligne closes in (2)
# and the rifles stand (2); their commander, defending a building (+1), beats three Frenchmen
# (9 against 6, 5, 6) but the rest of the rifles are wounded and taken, and the 1er Ligne goes in.


def check_forced(records: list[dict], script: str) -> None:
    """Each command rolled exactly the dice and turned exactly the cards the ``/dice`` and
    ``/cards`` lines just before it forced, and a command without them rolled and turned nothing."""
    lines = [line for line in script.splitlines() if line.strip()]
    assert [r["command"] for r in records] == lines
    forced: dict[str, list[str]] = {"die": [], "card": []}
    for line, record in zip(lines, records, strict=True):
        head, _, values = line.partition(" ")
        if head in ("/dice", "/cards"):
            forced["die" if head == "/dice" else "card"] = values.split(",")
            continue
        for kind, wanted in forced.items():
            assert [d["value"] for d in record["dice"] if d["kind"] == kind] == (wanted if record["ok"] else []), line
        if record["ok"]:
            forced = {"die": [], "card": []}


def refusals(records: list[dict]) -> list[tuple[str, str]]:
    return [(r["command"], r["error"]) for r in records if not r["ok"]]


def texts(records: list[dict], kind: str) -> list[str]:
    return [e["text"] for e in events(records, kind)]


def saved_state(db: Path) -> NsrState:
    """The battle as the SQLite file holds it, read back by the engine."""
    with sqlite3.connect(db) as connection:
        (state,) = connection.execute("SELECT state FROM games ORDER BY id DESC LIMIT 1").fetchone()
    loaded: NsrState = get_engine("nsr").load_state(json.loads(state) if isinstance(state, str) else state)
    return loaded


def where(state: NsrState) -> dict[str, tuple[tuple[float, ...], float]]:
    field = onmap.field_of(state)
    return {name: (tuple(xy), field.facing[name]) for name, xy in field.positions.items()}


def assert_apart(state: NsrState) -> None:
    table = battlefield_of(onmap.field_of(state).map).table
    shapes = {}
    for unit in state.units:
        placed = onmap.placement_of(state, unit)
        if placed is not None:
            assert on_table(placed, table, onmap.SPEC), unit.name
            shapes[unit.name] = footprint(placed, onmap.SPEC)
    for (a, pa), (b, pb) in itertools.combinations(shapes.items(), 2):
        assert not overlaps(pa, pb), f"{a} overlaps {b}"


def test_two_nsr_turns_on_the_village_survive_two_restarts(tmp_path: Path) -> None:
    db = tmp_path / "village.sqlite3"
    setup = play(db, SETUP)
    check_forced(setup, SETUP)
    assert refusals(setup) == [
        (
            '/map place figure:Rifles at:"39.2,20"',
            "Rifles in open order, 4″ wide and 3″ deep, facing south (270°), at 39.2,20 would stand partly "
            "outside Allied's deployment zone.",
        )
    ]
    assert texts(setup, "placed") == [
        "1er Ligne (French) stands at 29,6 in line, facing 90°.",
        "Chasseurs (French) stands at 46,5 in line, facing 90°.",
        "Rifles (Allied) stands at 39.2,29.5 in open order, facing 270°.",
        "Militia (Allied) stands at 46,30 in line, facing 270°.",
    ]
    last = setup[-1]
    assert last["decision"]["decider"] == "Allied" and last["decision"]["choices"] == ["Rifles", "Militia"]
    placed = saved_state(db)
    assert placed.phase == "movement" and placed.card == "2H"
    assert where(placed)["Chasseurs"] == ((46.0, 5.0), 90.0)
    assert_apart(placed)

    # A new process: turn 1's movement, fire and close combat phases.
    one = play(db, TURN_ONE)
    check_forced(one, TURN_ONE)
    assert refusals(one) == [
        ("/nsr charge target:Militia distance:14", "On the map the bot measures the distance: name the target only."),
        (
            '/nsr move to:"43,24"',
            "Rifles in open order, 4″ wide and 3″ deep, facing south (270°), at 43,24 would stand in the stream (north).",
        ),
    ]
    assert texts(one, "move") == [
        "Militia moves (line, cross country): 2D6 4+4 = 8 → up to 8″; moves 8″ to 46,22.",
        "Rifles moves (open order, cross country): 3D6 6+6+5 = 17 → up to 17″; moves 16.5″ to 34.4,16.6.",
        "1er Ligne moves (line, cross country): 2D6 6+5 = 11 → up to 11″; moves 11″ to 29,17.",
    ]
    assert texts(one, "charge")[0] == (
        "Chasseurs charges Militia: 6D6 3+3+2+2+2+2 = 14 → 14″; it stops 2″ short, to close in the close "
        "combat phase; it faces 90° and moves 13″ to 46,18."
    )
    [volley] = events(one, "volley")
    assert volley["data"] == {
        "unit": "1er Ligne",
        "target": "Rifles",
        "class": "II",
        "firers": 7,
        "cards": 7,
        "notes": [],
    }
    hits = [e["data"].get("figure") for e in events(one, "hit")]
    assert hits == [None, "Private 1", None, None, None, None, None]
    [fire] = events(one, "fire")
    assert (fire["data"]["range"], fire["data"]["class"], fire["data"]["firers"], fire["data"]["hits"]) == (
        3.4,
        "I",
        2,
        0,
    )
    said = next(r for r in one if r["command"] == "/nsr melee")["text"]
    assert "Chasseurs closes 2″ to 46,20." in said
    assert "Militia is shaken: it falls back 10″ in disorder until rallied; it moves 10″ back to 46,32." in said
    assert "Chasseurs occupies Militia's position (it won the close combat): Chasseurs moves 2″ to 46,22." in said
    assert [e["data"] for e in events(one, "shaken")] == [{"unit": "Militia", "inches": 10}]
    after_one = saved_state(db)
    assert after_one.turn == 2 and after_one.phase == "movement" and after_one.charges == []
    assert where(after_one)["Militia"] == ((46.0, 32.0), 270.0)
    assert where(after_one)["Chasseurs"] == ((46.0, 22.0), 90.0)
    assert where(after_one)["1er Ligne"] == ((29.0, 17.0), 0.0)
    assert_apart(after_one)

    # Another process: turn 2, the fight for the farmhouse, and the picture saved.
    pictures = tmp_path / "pictures"
    two = play(db, TURN_TWO, "--files", str(pictures))
    check_forced(two, TURN_TWO)
    assert refusals(two) == []
    assert texts(two, "occupy") == ["Rifles moves into the farmhouse: 3 of 24 places taken, over 1 floor."]
    [charge] = events(two, "charge")[:1]
    assert charge["text"].startswith("1er Ligne charges Rifles: 3D6 1+1+3 = 5 → 5″; it stops 2″ short")
    [fire] = events(two, "fire")
    assert (fire["data"]["firers"], fire["data"]["hits"]) == (2, 0) and fire["data"]["range"] < 3
    fights = [e["data"] for e in events(two, "fight")]
    assert fights and all(f["b"]["unit"] == "Rifles" for f in fights)
    assert all({"reason": "defending a building", "value": 1} in f["b"]["modifiers"] for f in fights)
    assert [(f["winner"], f["a"]["figure"]) for f in fights[:3]] == [
        ("Commander-in-Chief", "Commander-in-Chief"),
        ("Commander-in-Chief", "Private 2"),
        ("Commander-in-Chief", "Private 5"),
    ]
    said = next(r for r in two if r["command"] == "/nsr melee")["text"]
    assert "1er Ligne wins the close combat against Rifles." in said
    assert "1er Ligne occupies Rifles' position (it won the close combat): 1er Ligne goes into the farmhouse." in said
    after_two = saved_state(db)
    assert after_two.turn == 3 and [b.name for b in after_two.buildings] == ["the farmhouse"]
    inside = [(u.name, u.building) for u in after_two.units if u.building and not u.out]
    assert inside == [("1er Ligne", "the farmhouse")] and unit_named(after_two, "Rifles").out
    assert_apart(after_two)

    [shown] = [r for r in two if r["command"] == "/map show focus:Chasseurs"]
    view = "\n".join(" ".join(line.split()) for line in shown["text"].splitlines())
    assert "The village · turn 3 · movement" in view
    assert "French 1er Ligne 32.5,13.0 in the farmhouse, 8 figures" in view
    assert "French Chasseurs 46.0,22.0 line, facing north (90°), 4 figures" in view
    assert "Rifles" not in view.split("Units (")[1], "the rifles are all taken: nothing of them on the map"
    [saved] = shown["files"]
    data = Path(saved).read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and Path(saved).parent == pictures
    width, height = Image.open(io.BytesIO(data)).size
    assert 1100 <= width <= 1300 and height > width / 2
