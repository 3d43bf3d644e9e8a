"""A Sharpe skirmish on the shipped farm map at the terminal, over three bounds: a real process, a
real SQLite file, each man placed and facing the enemy, moves at a run and a walk the bot measures,
a hedge and a wall jumped (one man falls at the hedge), a shot through the yard wall's hard cover,
a melee from the front and then one from the rear with the failed test to turn, and a refusal of
each kind (a shot with no line of sight, a path through the byre) that rolls nothing and moves
nobody. Forced dice are given just before the command that rolls them (``/dice``). The battle stops
while the british decide how Sharpe defends and goes on in a new process, which saves the
battlefield's picture with ``--files``."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from tests.bot.test_console import check_dice, events, play

SETUP = """\
/as Gina
/campaign new name:"The Farm" ruleset:sharpe
/as Rita
/campaign join side:british
/as Gina
/decide choice:approve
/as Bob
/campaign join side:french
/as Gina
/decide choice:approve
/as Rita
/roster add name:Sharpe kind:rifle_officer stats:"I=6 D=5 S=5 C=6 F=10"
/roster add name:Harper kind:rifle_sergeant stats:"I=5 D=4 S=6 C=5 F=10"
/roster add name:Harris kind:rifleman stats:"I=4 D=4 S=3 C=3 F=9"
/as Bob
/roster add name:Leroux kind:officer stats:"I=5 D=4 S=4 C=5 F=7"
/roster add name:Dubois kind:voltigeur stats:"I=4 D=3 S=3 C=3"
/roster add name:Martin kind:voltigeur stats:"I=3 D=3 S=3 C=3"
/as Gina
/map new scenario:farm
/game start
/as Rita
/map place figure:Sharpe at:"5.4,15"
/map place figure:Harper at:"5.4,17.5"
/map place figure:Harris at:"5.4,22"
/as Bob
/map place figure:Leroux at:"42.6,15"
/map place figure:Dubois at:"43,10"
/dice 6,4,3,6,4,1
/map place figure:Martin at:"43,27.5"
"""
# The British stand at the west edge, the French at the east. The last man placed rolls the order
# of movement, one D6 each in roster order: Sharpe 12, Leroux 11, Harper 9, Dubois 8, Harris 7,
# Martin 4.

FIRST_HALF = """\
/as Rita
/sharpe move pace:run to:"14.4,15"
/sharpe done
/as Bob
/sharpe move pace:run to:"33.6,15"
/sharpe done
/as Rita
/sharpe move pace:run to:"14.4,17.5"
/sharpe done
/as Bob
/dice 5
/sharpe move pace:walk to:"40,14"
/sharpe done
/as Rita
/sharpe shoot target:Martin
/sharpe move pace:walk to:"10,22"
/sharpe done
/as Bob
/sharpe move pace:run to:"30,28.5"
/sharpe move pace:run to:"37,24"
/sharpe done
/map show
/as Rita
/sharpe move pace:run to:"23.4,15"
/sharpe done
/as Bob
/sharpe move pace:run toward:Sharpe
/sharpe attack defender:Sharpe
"""
# Bound 1: Sharpe, Leroux and Harper run 9″ along the track; Dubois tries to jump the cactus hedge
# (5 + 1 against his D 3) and falls at its foot; Harris cannot see Martin behind the farmhouse and
# walks instead; Martin cannot cut through the byre and runs to the yard wall's east side instead.
# Bound 2: Sharpe runs on, Leroux runs the last 9″ into him and attacks; the british are asked.

SECOND_HALF = """\
/as Rita
/dice 2,4
/decide choice:parry
/as Bob
/sharpe done
/as Rita
/sharpe move pace:run to:"23.3,17.8"
/sharpe done
/as Bob
/sharpe rise
/sharpe done
/as Rita
/dice 3,4,2
/sharpe shoot target:Martin
/sharpe done
/as Bob
/dice 2
/sharpe move pace:walk to:"35,24"
/sharpe done
/as Rita
/sharpe move toward:Leroux
/sharpe attack defender:Leroux
/as Bob
/dice 1,4
/decide choice:parry
/as Rita
/sharpe done
/as Bob
/sharpe done
/as Rita
/sharpe move via:"26.5,17" to:"26.23,15.41"
/sharpe attack defender:Leroux
/as Bob
/dice 5
/decide choice:turn
/dice 4,2,6,5,5
/decide choice:parry
/map show focus:Harris
"""
# A new process, the decision still waiting: Sharpe parries (10 against 7) and gives half an inch
# straight back. Harper runs up behind; Dubois gets up; Harris hits Martin in the abdomen, which
# the yard wall hides: a miss; Martin jumps the wall into the yard (2 + 1 against his D 3). Bound 3: Sharpe steps back into contact and attacks, Leroux parries
# and gives ground; Harper goes round him and attacks from the rear: Leroux fails to turn (5 against
# D 4), Harper's +3 wins, a head wound kills him, and the French, their officer fallen, fail their
# morale (5 against Dubois's I 4).


def flat(text: str) -> str:
    """The text with every run of spaces as one, so a column's width does not matter."""
    return "\n".join(" ".join(line.split()) for line in text.splitlines())


def refusals(records: list[dict]) -> list[tuple[str, str]]:
    return [(r["command"], r["error"]) for r in records if not r["ok"]]


def test_a_sharpe_skirmish_on_the_farm_over_three_bounds_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "farm.sqlite3"
    setup = play(db, SETUP)
    assert refusals(setup) == []
    check_dice(setup, SETUP)
    placed = [e["text"] for e in events(setup, "placed")]
    assert placed[0] == "Sharpe (british) stands at 5.4,15.0." and len(placed) == 6
    [order] = events(setup, "order")
    assert order["text"].endswith("Order: 1. Sharpe, 2. Leroux, 3. Harper, 4. Dubois, 5. Harris, 6. Martin.")
    assert setup[-1]["say"] == "@Rita british: your move — Sharpe to act."  # the order picks the man

    first = play(db, FIRST_HALF)
    check_dice(first, FIRST_HALF)
    assert refusals(first) == [
        (
            "/sharpe shoot target:Martin",
            "Harris cannot see Martin: the farmhouse is in the way, 16.1″ in front of Martin.",
        ),
        (
            '/sharpe move pace:run to:"30,28.5"',
            "Martin cannot go that way: the path crosses the byre, which cannot be crossed.",
        ),
    ]
    assert all(not r["events"] and not r["dice"] for r in first if not r["ok"]), "a refusal changes nothing"
    moves = [e["text"] for e in events(first, "move")]
    assert moves[:3] == [
        "Sharpe runs 9.0″ to 14.4,15.0 (0.0″ left).",
        "Leroux runs 9.0″ to 33.6,15.0 (0.0″ left).",
        "Harper runs 9.0″ to 14.4,17.5 (0.0″ left).",
    ]
    assert moves[3] == "Dubois stumbles at the cactus hedge after 1.4″ and lies at 42.14,11.14."
    assert moves[4] == "Harris walks 4.6″ to 10.0,22.0 (1.4″ left)."
    assert moves[5] == "Martin runs 6.9″ to 37.0,24.0 (2.1″ left)."
    [fall] = events(first, "fall")
    assert fall["text"].startswith("Dubois: jump the cactus hedge: D6 5 +1 low wall or bush = 6 vs D 3: fails")

    [shown] = [r for r in first if r["command"] == "/map show"]
    view = flat(shown["text"])
    assert "Farm · bound 2 · Sharpe (british) to act (48 x 36 inch table)" in view
    assert "british Sharpe 14.4,15.0 facing east (0°)" in view
    assert "french Leroux 33.6,15.0 facing west (180°)" in view
    assert "french Dubois 42.14,11.14 facing north-west (127°), down" in view
    assert "french Martin 37.0,24.0 facing south-west (210°)" in view
    assert "Harper - Martin 23.5″ partial: the yard wall 0.8″ in front of Martin | back: clear" in view

    assert [e["text"] for e in events(first, "contact")] == [
        "Leroux reaches Sharpe: his move ends, and he may attack him now."
    ]
    [attack] = events(first, "attack")
    assert attack["data"]["side"] == "front"
    asked = first[-1]["decision"]
    assert asked["decider"] == "british" and asked["choices"] == ["parry", "riposte", "dodge", "distract"]

    # A new process on the same file: the british answer the question the first one asked.
    pictures = tmp_path / "pictures"
    second = play(db, SECOND_HALF, "--files", str(pictures))
    check_dice(second, SECOND_HALF)
    assert refusals(second) == []
    melee = [e["text"] for e in events(second, "melee")]
    assert melee[0] == (
        "Leroux attacks Sharpe: C 5 + D6 2 = 7 vs parry C 6 + D6 4 = 10: parried — Sharpe recoils 0.5″ to 22.9,15.0."
    )
    [jump] = [e for e in events(second, "check") if e["data"].get("figure") == "Martin"]
    assert jump["text"] == "Martin: jump the yard wall: D6 2 +1 low wall or bush = 3 vs D 3: succeeds."
    assert "Martin walks 2.0″ to 35.0,24.0 (4.0″ left)." in [e["text"] for e in events(second, "move")]
    [shot] = events(second, "shot")
    assert shot["data"]["measured"] == "27.1″ measured, hard cover: the yard wall"
    assert shot["data"]["cover"] == "hard" and shot["data"]["hit"] is False
    assert shot["text"].endswith("hit · location 2: abdomen · the abdomen is behind hard cover: miss.")

    assert [(e["data"]["attacker"], e["data"]["side"]) for e in events(second, "attack")] == [
        ("Sharpe", "front"),
        ("Harper", "rear"),
    ]
    assert melee[1].endswith("parried — Leroux recoils 0.5″ to 25.1,15.0.")
    [turn] = [e for e in events(second, "check") if e["data"].get("figure") == "Leroux"]
    assert turn["text"] == "Leroux: turn to face Harper: D6 5 vs D 4: fails: the attack comes in too quickly."
    assert melee[2].startswith("Harper attacks Leroux: C 5 +3 from the rear, not turned + D6 4 = 12 vs parry")
    assert melee[2].endswith("location 6: head · wound score 6 + D6 5 +1 strength 6 = 12: kill.")
    assert [e["data"]["figure"] for e in events(second, "casualty")] == ["Leroux"]
    [morale] = events(second, "morale")
    assert "the french are broken" in morale["text"]

    [shown] = [r for r in second if r["command"] == "/map show focus:Harris"]
    view = flat(shown["text"])
    assert "Farm · bound 3 · Harper (british) to act (48 x 36 inch table)" in view
    assert "british Harper 26.23,15.41 facing west (200°)" in view
    assert "french Leroux 25.1,15.0 facing west (180°), out" in view
    assert (
        "Harris: 0.0″ of movement left; Baker rifle +1 10.0″, Baker rifle no modifier 48.0″" in view
    )  # Harper acts now: Harris may not move
    assert "french Martin 35.0,24.0 facing west (180°)" in view
    assert "Harris - Martin 25.1″ partial: the dung heap 2.0″ in front of Martin" in view
    [saved] = shown["files"]
    assert Path(saved).parent == pictures

    # What the channel gets: one picture a bound (and one when the last man is placed), not one a
    # man's turn; after an action, where everyone stands, never the terrain again
    records = setup + first + second
    pictured = [r["command"] for r in records if r["ok"] and (r.get("files") or r.get("attached"))]
    closing = [
        r["command"] for r in records if r["ok"] and any(e["kind"] in ("bound", "deployment-done") for e in r["events"])
    ]
    assert len(closing) == 3  # the last man placed, the ends of bounds 1 and 2
    looks = ["/map new scenario:farm", "/game start", "/map show", "/map show focus:Harris"]
    assert sorted(pictured) == sorted([*closing, *looks])
    acted = [r for r in records if r["ok"] and r["command"].startswith(("/sharpe", "/decide", "/map place"))]
    assert not [r["command"] for r in acted if "Terrain (" in r["text"] or "Nearest enemies" in r["text"]]
    data = Path(saved).read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = Image.open(io.BytesIO(data)).size
    assert 1100 <= width <= 1300 and height > width * 0.75
