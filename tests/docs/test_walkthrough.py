"""The campaign walk-through (``docs/walkthrough.md``) is played as written, and says what the bot
really answers.

The page's command blocks (```text blocks whose first line starts with ``# walk-through``) are
fed, in order, to one ``skirmish-gm play --db <new file> --seed N`` (N from the page's
``skirmish-gm play`` line), in a folder holding the files the page gives (```yaml blocks whose
first line is ``# walk-through file: NAME``). Every other ```text block is an answer, abridged: each
of its lines must be a whole line the bot printed, in the order shown, where ``…`` stands for any
text and a line that is only ``…`` for lines left out; a refusal (``!!``) is printed only where
the page shows it. A block opening with ``$ skirmish-gm verify`` is what ``verify`` says of the
campaign file the walk-through exports. So the walk-through cannot drift from the bot. The
pictures it shows are drawn by scripts in ``docs/pictures/`` that are the page's own commands, up
to the picture. The README's one-screen first game is played the same way.

Below that, the small fixes the walk-through brought: a figure's history read as sentences, the
rolls after a battle on the card of their own side (and a fate the card tells already, not twice),
a body part named in words on a wound card, and a man who has sat out his games shown as active
again as soon as he has.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select

from bot.app.aftermath import post_battle_cards
from bot.app.rosters import history_line
from bot.app.service import App
from bot.dice import ForcedDice
from bot.provable import commitment
from bot.render.cards import wound_card
from bot.store.schema import Figure, Game
from bot.verify import check
from rules.core import Aftermath, Event
from tests.orm import orm
from tests.support import BLUE, GM, RED, caller, join

ROOT = Path(__file__).resolve().parents[2]
WALKTHROUGH = ROOT / "docs" / "walkthrough.md"
TITLE = "# A campaign's life"
README = ROOT / "README.md"
TOUR_HEADING = "## A first game"
MARK = "# walk-through"
FILE_MARK = "# walk-through file:"
VERIFY_MARK = "$ skirmish-gm verify"
PICTURES = ROOT / "docs" / "pictures"
PICTURE_SCRIPTS = ("walkthrough-farm.txt", "walkthrough-village.txt")
FENCE = re.compile(r"^```([\w-]*)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)


@dataclass
class Walkthrough:
    seed: int
    commands: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    answers: list[str] = field(default_factory=list)
    verified: list[str] = field(default_factory=list)


def read_walkthrough(text: str) -> Walkthrough:
    """The whole page is the walk-through: its title first, then its commands, files and answers."""
    assert text.startswith(TITLE), f"{WALKTHROUGH.name} opens with its title ({TITLE} …)"
    seed = re.search(r"skirmish-gm play [^\n`]*--seed (\d+)", text)
    assert seed, "the walk-through names the seed it was played with (skirmish-gm play … --seed N)"
    walk = Walkthrough(int(seed.group(1)))
    for info, body in FENCE.findall(text):
        first = body.split("\n", 1)[0].strip()
        if first.startswith(FILE_MARK):
            walk.files[first[len(FILE_MARK) :].strip()] = body
        elif info == "text" and first.startswith(MARK):
            walk.commands += body.splitlines()
        elif info == "text" and first.startswith(VERIFY_MARK):
            walk.verified += body.splitlines()[1:]
        elif info == "text":
            walk.answers += body.splitlines()
    return walk


def typed(lines: list[str]) -> list[str]:
    """The command lines of a script or of the page's command blocks: no comments, no blank lines."""
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def printed_file(printed: str, suffix: str) -> tuple[str, str]:
    """The last attached file the terminal printed whose name ends with ``suffix``: (name, text)."""
    found = re.findall(r"^--- (\S+) ---\n(.*?)\n--- end of \1 ---$", printed, re.M | re.S)
    named = [(name, text) for name, text in found if name.endswith(suffix)]
    assert named, f"the walk-through prints a {suffix} file"
    return named[-1]


def read_tour(text: str) -> Walkthrough:
    """The README's first game: its section's first ```text block is typed, the others are answers."""
    start = text.index(TOUR_HEADING)
    part = text[start : text.index("\n## ", start + 1)]
    seed = re.search(r"skirmish-gm play [^\n`]*--seed (\d+)", part)
    assert seed, "the first game names the seed it was played with (skirmish-gm play … --seed N)"
    typed, *answers = [body for info, body in FENCE.findall(part) if info == "text"]
    return Walkthrough(int(seed.group(1)), typed.splitlines(), {}, [line for a in answers for line in a.splitlines()])


def line_pattern(shown: str) -> re.Pattern[str]:
    """A walk-through answer line as a pattern for one whole printed line: ``…`` is any text."""
    return re.compile(".*".join(re.escape(piece.strip()) for piece in shown.strip().split("…")))


def not_printed(answers: list[str], printed: list[str]) -> list[str]:
    """The answer lines that the bot did not print, in that order (an empty list when all were)."""
    lines = [line.strip() for line in printed]
    at, missing = 0, []
    for shown in answers:
        if shown.strip() in ("", "…"):
            continue
        pattern = line_pattern(shown)
        found = next((i for i in range(at, len(lines)) if pattern.fullmatch(lines[i])), None)
        if found is None:
            missing.append(shown)
        else:
            at = found + 1
    return missing


def run_bot(folder: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SKIRMISH_GM_DATA": str(folder / "data"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard: a loaded machine may take minutes
        env=env,
        cwd=folder,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def play(walk: Walkthrough, folder: Path) -> str:
    for name, body in walk.files.items():
        (folder / name).write_text(body, encoding="utf-8")
    done = run_bot(
        folder,
        "play",
        "--db",
        str(folder / "campaign.sqlite3"),
        "--seed",
        str(walk.seed),
        stdin="\n".join(walk.commands) + "\n",
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_walkthrough_is_what_the_bot_answers(tmp_path: Path) -> None:
    walk = read_walkthrough(WALKTHROUGH.read_text(encoding="utf-8"))
    commands = typed(walk.commands)
    assert commands[0] == "/as Gina" and commands[1].startswith("/campaign new ")
    assert "/campaign join side:british" in commands and any(c.startswith("/decide ") for c in commands)
    assert sum(c.startswith("/game start") for c in commands) == 3 and "/game report" in commands
    assert any(c.startswith("/map new scenario:") for c in commands), "the walk-through is fought on a shipped map"
    assert commands[-1] == "/campaign export" and walk.verified
    assert walk.files and len(walk.answers) > 100

    printed = play(walk, tmp_path)
    refused = [line for line in printed.splitlines() if line.startswith("!!")]
    shown = [line for line in walk.answers if line.startswith("!!")]
    unshown = [line for line in refused if not any(line_pattern(s).fullmatch(line.strip()) for s in shown)]
    assert unshown == [], "a command is refused only where the page shows its refusal"
    assert not_printed(walk.answers, printed.splitlines()) == []
    report = re.search(r"^--- battle-3\.md ---\n# .+ — battle 3\n", printed, re.M)
    assert report, "the walk-through shows the third battle's report"
    assert printed.count("== After the battle: British ==") == 3

    name, export = printed_file(printed, ".yaml")
    (tmp_path / name).write_text(export + "\n", encoding="utf-8")
    checked = run_bot(tmp_path, "verify", name)
    assert not_printed(walk.verified, checked.stdout.splitlines()) == []


def test_the_walkthroughs_pictures_are_drawn_by_its_own_commands() -> None:
    """Each picture script in docs/pictures/ is the page's commands up to the picture it keeps (its
    last line), so running it draws the picture the page shows, and it cannot drift from the page."""
    page = WALKTHROUGH.read_text(encoding="utf-8")
    commands = typed(read_walkthrough(page).commands)
    for script in PICTURE_SCRIPTS:
        lines = typed((PICTURES / script).read_text(encoding="utf-8").splitlines())
        assert lines == commands[: len(lines)], f"{script} plays the walk-through's commands as written"
        assert lines[-1].startswith("/map show"), f"{script} ends with the picture it keeps"
        assert (
            f"pictures/{script.removesuffix('.txt')}.png" in page and (PICTURES / script).with_suffix(".png").exists()
        )


def test_the_readme_first_game_is_what_the_bot_answers(tmp_path: Path) -> None:
    tour = read_tour(README.read_text(encoding="utf-8"))
    commands = [c.strip() for c in tour.commands if c.strip() and not c.lstrip().startswith("#")]
    assert commands[0] == "/as Gina" and "/game start" in commands
    assert len(tour.answers) > 3

    printed = play(tour, tmp_path)
    refused = [line for line in printed.splitlines() if line.startswith("!!")]
    assert refused == [], "every line of the first game is carried out"
    assert not_printed(tour.answers, printed.splitlines()) == []


def test_the_matching_reads_the_ellipsis_and_keeps_order() -> None:
    printed = ["== Game on ==", "Order of movement: Sharpe 4+6 = 10, Harper 4+5 = 9.", "  Dice:"]
    assert not_printed(["== Game on ==", "Order of movement: … = 10, … = 9.", "…", "Dice:"], printed) == []
    assert not_printed(["Order of movement: …", "== Game on =="], printed) == ["== Game on =="]
    assert not_printed(["Game on"], printed) == ["Game on"]  # a whole line, not a piece of one


# --- the fixes the walk-through brought -------------------------------------------------------------


def test_a_figures_history_reads_as_sentences() -> None:
    assert history_line(
        {"battle": 1, "note": "Leroux rolls 5: he misses the next 5 games.", "date": "2025-05-01", "games_out": 5}
    ) == ("Battle 1: Leroux rolls 5: he misses the next 5 games. (2025-05-01)")
    assert history_line({"battle": 2, "result": "removed by Rossi"}) == "Battle 2: result: removed by Rossi"
    assert (
        history_line({"battle": 3, "note": "Battle 3: fought", "date": "2025-05-02"}) == "Battle 3: fought (2025-05-02)"
    )
    assert history_line("an old campaign's note") == "an old campaign's note"
    assert history_line({}) == "—"


def test_the_rolls_after_a_battle_go_on_their_own_sides_card() -> None:
    results = [
        Aftermath("Sharpe", "british", "active", "fought; wounds heal"),
        Aftermath("Leroux", "french", "resting", "Leroux rolls 5: he misses the next 5 games.", games_out=5),
    ]
    events = [Event("aftermath", "Leroux's horse is lame for good.", {"figure": "Leroux"})]
    british, french = post_battle_cards(results, events)
    assert british.fields == []
    assert french.fields == [("Rolled after the battle", "Leroux's horse is lame for good.", False)]


def test_a_fate_rolled_after_the_battle_is_told_once_on_its_card() -> None:
    """Sharpe's fate roll is both the figure's note and the roll's own text: the card says it once."""
    fate = "Leroux rolls 5: he misses the next 5 games."
    results = [
        Aftermath("Sharpe", "british", "active", "fought; wounds heal"),
        Aftermath("Leroux", "french", "resting", fate, games_out=5),
    ]
    british, french = post_battle_cards(results, [Event("aftermath", fate, {"figure": "Leroux", "fate": "injured"})])
    assert french.description == f"🛌 **Leroux** — {fate}" and french.fields == [] and british.fields == []


def test_a_wound_card_names_the_body_part_in_words() -> None:
    card = wound_card(
        Event("wound", "Leroux: serious wound to the left arm.", {"figure": "Leroux", "location": "left_arm"})
    )
    assert card.title == "🩸 Wound: Leroux — left arm"


async def test_a_man_who_has_sat_out_his_games_is_active_again_when_the_battle_he_missed_ends(
    app: App,
    forced: ForcedDice,
) -> None:
    await app.campaign_new(caller(GM, "Gina"), "M", "medieval")
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")
    for name in ("Hugh", "Walt"):
        await app.roster_add(caller(RED, "Rita"), name, "Knight")
    await app.roster_add(caller(BLUE, "Bob"), "Olaf", "Viking Warrior")
    forced.push_dice([6, 1])
    await app.game_start(caller(GM, "Gina"))
    await app.game_end(caller(GM))
    async with orm(app.store.db) as s:
        first = await s.scalar(select(Game.number))
        walt = await s.scalar(select(Figure).where(Figure.name == "Walt"))
        walt.status, walt.history = (
            "resting",
            [*walt.history, {"battle": first, "note": "misses 1 game", "games_out": 1}],
        )
    forced.push_dice([6, 1])
    await app.game_start(caller(GM, "Gina"))  # Walt sits this one out …
    async with orm(app.store.db) as s:
        assert (await s.scalar(select(Figure).where(Figure.name == "Walt"))).status == "resting"
    await app.game_end(caller(GM))  # … and has served it when it ends: the roster says so at once
    async with orm(app.store.db) as s:
        assert (await s.scalar(select(Figure).where(Figure.name == "Walt"))).status == "active"


def test_verify_never_says_a_seeded_battles_dice_match_when_none_came_from_the_secret() -> None:
    """The walk-through's battles are seeded from their first roll: their logs hold no draw of the
    secret, and ``verify`` said "all 0 dice and cards match" after saying they were seeded."""
    secret = "11" * 32
    seeded = {
        "battle": 1,
        "secret": secret,
        "commitment": commitment(bytes.fromhex(secret)),
        "note": "seeded",
        "draws": [],
    }
    checked = check(seeded)
    assert not checked.ok
    assert (
        checked.said == "its dice were seeded at the terminal, not drawn from the secret. None of them can be checked."
    )
