"""The map at the terminal: drafted, fought on, deployed and shown as text, and its picture saved by
``--files`` under a name no later run overwrites."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from tests.bot.test_console import play

SETUP = """\
/as Gina
/campaign new name:"Iron Coast" ruleset:ssg
/as Rita
/campaign join side:red
/as Gina
/decide choice:approve
/as Rita
/roster add name:Rossi kind:rifle
/roster add name:Ada kind:rifle
/roster add name:Cy kind:smg
/roster add name:Dee kind:pistol
/roster add name:Eli kind:rifle
/roster add name:Fay kind:rifle
/as Bob
/campaign join side:blue
/as Gina
/decide choice:approve
/as Bob
/roster add name:"Big Jim" kind:smg
/roster add name:Bo kind:pistol
/roster add name:Bert kind:rifle
/roster add name:Bill kind:rifle
/roster add name:Ben kind:rifle
/roster add name:Bud kind:rifle
/as Gina
/map new scenario:crossroads
/map feature add kind:wood points:"30,30 34,30 34,34" name:"the spinney"
/map feature add kind:lava points:"1,1 2,1 2,2"
/game start
/as Rita
/map place figure:Rossi at:"14,2"
/map place figure:Rossi at:"15,2"
/map deploy
/as Bob
/map deploy
/map show focus:"Big Jim"
"""


def test_the_map_is_printed_and_its_pictures_are_never_overwritten(tmp_path: Path) -> None:
    db, files = tmp_path / "map.sqlite3", tmp_path / "files"
    records = play(db, SETUP, "--dice", "5,2", "--files", str(files))
    refused = {r["command"]: r["error"] for r in records if not r["ok"]}
    assert refused == {
        '/map feature add kind:lava points:"1,1 2,1 2,2"': "“lava” is not a kind of terrain: use wood, building, "
        "wall, hedge, fence, hill, water, ford, road, rough, rubble, barricade.",
        '/map place figure:Rossi at:"15,2"': "Rossi is already placed, at 14.0,2.0.",
    }
    shown = records[-1]
    assert "Big Jim" in shown["text"] and "Crossroads" in shown["text"]
    [saved] = shown["files"]
    assert Path(saved).name.endswith("-map.png")
    width, _ = Image.open(io.BytesIO(Path(saved).read_bytes())).size
    assert 1100 <= width <= 1300

    again = play(db, '/as Rita\n/map show focus:"Rossi"\n', "--files", str(files))
    [later] = again[-1]["files"]
    assert later != saved and Path(saved).exists() and Path(later).exists()
    pictures = sorted(files.glob("*-map.png"))
    assert (
        len(pictures)
        == len({p.name for p in pictures})
        == len([p for r in records + again for p in r.get("files") or [] if p.endswith("map.png")])
    )
