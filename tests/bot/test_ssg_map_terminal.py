"""A whole SSG battle on the crossroads at the terminal: a real process, a real SQLite file, the
map drafted from a shipped scenario, both sides deployed, moves and shots the bot measures, forced
dice given just before the command that rolls them (``/dice``), and a restart half way. The
second half saves the battlefield's picture with ``--files``."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from tests.bot.test_console import check_dice, events, play

SETUP = """\
/as Gina
/campaign new name:"Crossroads" ruleset:ssg
/as Rita
/campaign join side:red
/as Gina
/decide choice:approve
/as Rita
/roster add name:Rossi kind:rifle
/roster add name:Garcia kind:rifle
/roster add name:Chen kind:rifle
/roster add name:Dubois kind:rifle
/roster add name:Evans kind:rifle
/roster add name:Fox kind:rifle
/as Bob
/campaign join side:blue
/as Gina
/decide choice:approve
/as Bob
/roster add name:"Big Jim" kind:rifle
/roster add name:Slim kind:rifle
/roster add name:Doc kind:rifle
/roster add name:Tex kind:rifle
/roster add name:Hank kind:rifle
/roster add name:Kid kind:rifle
/as Gina
/map new scenario:crossroads
/dice 6,1
/game start
/as Rita
/map deploy
/as Bob
/map deploy
"""

# Red walks up the lanes 28 inches short of blue; blue answers to exactly 24 (a rifle's long range)
# and Big Jim misses; Kid cannot cut through the farmhouse.
FIRST_HALF = """\
/as Rita
/ssg move figure:Rossi to:"17.2,6.2"
/ssg move figure:Garcia toward:Slim distance:4
/ssg move figure:Chen via:"15.8,4.2" to:"15.8,6.2"
/ssg move figure:Dubois toward:Tex
/ssg next
/ssg next
/as Bob
/ssg move figure:"Big Jim" to:"17.2,30.2"
/ssg move figure:Slim toward:Garcia distance:4
/ssg move figure:Doc to:"15.8,30.2"
/ssg move figure:Tex to:"20.2,30.2"
/ssg move figure:Kid to:"24,27"
/ssg move figure:Kid to:"21.8,31"
/ssg move figure:Hank to:"14.2,30.2"
/ssg next
/dice 2
/ssg shoot shooter:"Big Jim" target:Rossi
/ssg next
"""

# A new process: red closes in; Evans cannot see Hank through the north hedge; four hits win.
SECOND_HALF = """\
/as Rita
/ssg move figure:Rossi to:"17.2,10.2"
/ssg move figure:Chen to:"15.8,10.2"
/ssg move figure:Evans to:"14.2,6.2"
/ssg next
/ssg shoot shooter:Evans target:Hank
/dice 6
/ssg shoot shooter:Rossi target:"Big Jim"
/dice 6
/ssg shoot shooter:Chen target:Doc
/dice 6
/ssg shoot shooter:Garcia target:Slim
/dice 6
/ssg shoot shooter:Dubois target:Tex
/map show
"""


def test_a_whole_battle_on_the_crossroads_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "crossroads.sqlite3"
    setup = play(db, SETUP)
    assert all(r["ok"] for r in setup), [r for r in setup if not r["ok"]]
    check_dice(setup, SETUP)
    deployed = [e["text"] for e in events(setup, "deployed")]
    assert deployed[0].startswith("red deploys: Rossi 17.2,2.2, Garcia 18.8,2.2")
    assert deployed[1].startswith("blue deploys: Big Jim 17.2,34.2")
    assert setup[-1]["events"][-1]["text"] == "Every figure is on the map: turn 1 · red · movement phase."

    first = play(db, FIRST_HALF)
    check_dice(first, FIRST_HALF)
    says = [r["say"] for r in first if r.get("say")]
    assert says == ["@Bob blue: your move.", "@Rita red: your move."], "a new process knows the players' names"
    refused = [(r["command"], r["error"]) for r in first if not r["ok"]]
    assert refused == [
        (
            '/ssg move figure:Kid to:"24,27"',
            "Kid cannot go that way: the path crosses the farmhouse, which cannot be crossed.",
        )
    ]
    moves = [e["text"] for e in events(first, "move")]
    assert moves[0] == "Rossi moves 4.0″ to 17.2,6.2 (0.0″ left)."
    assert moves[1] == "Garcia moves 4.0″ to 18.8,6.2 (0.0″ left)."
    assert [e["text"] for e in events(first, "shot")] == [
        "Big Jim fires at Rossi (24.0″, clear): 2 − 1 (long range) = 1, needs 5: miss."
    ]

    pictures = tmp_path / "pictures"
    second = play(db, SECOND_HALF, "--files", str(pictures))
    check_dice(second, SECOND_HALF)
    refused = [(r["command"], r["error"]) for r in second if not r["ok"]]
    assert refused == [
        (
            "/ssg shoot shooter:Evans target:Hank",
            "Evans has no line of sight to Hank (blocked: the north hedge 8.8″ in front of Hank), "
            "so cannot shoot at it.",
        )
    ]
    shots = [e["text"] for e in events(second, "shot")]
    assert shots[0] == "Rossi fires at Big Jim (20.0″, clear): 6 − 1 (long range) = 5, needs 5: hit."
    assert [e["data"]["figure"] for e in events(second, "casualty")] == ["Big Jim", "Doc", "Slim", "Tex"]
    assert [e["data"]["winner"] for e in events(second, "victory")] == ["red"]

    saved = sorted(pictures.rglob("*.png"))
    assert saved, "the battlefield's picture is saved with --files"
    data = saved[-1].read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = Image.open(io.BytesIO(data)).size
    assert 1100 <= width <= 1300 and height > width / 2
