"""The proof is whole: ``skirmish-gm verify`` and the standalone script of docs/verify.md fail, in a
sentence, on a report or an export tampered with in any of the ways that used to pass.

One NSR battle (cards and dice, an action taken back, a free roll whose reason holds markdown and
a forged draw tag, the game master's secret roll, a d1) is played at the terminal in a real process
on a real SQLite file, ended, reported and exported. Its end card and its report say how many
draws it made. Then copies of the report are changed as someone editing the file would, and both
checkers are run on each:

* the last draw deleted (from the dice block and the narrative), every draw deleted, the draws
  replaced by empty records (and an export whose draws are emptied): draws are missing;
* a die changed in the narrative, a d6 rewritten as a d20 with the face the secret gives a d20, a
  reason changed in the dice block or in the narrative: the narrative and the block disagree;
* a report written before reports said their count: it says so and passes nothing;
* 100,000 nested JSON lists in the dice block, 20,000 nested YAML lists (flow and block) in an
  export: refused in a sentence, with no traceback.

The untouched report passes both checkers, and the untouched export passes ``verify``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.dice import FULL_DECK, RecordingDice, RolledDie
from bot.provable import ProvableDice, die, new_secret
from bot.render.report import DICE_MARK, dice_markdown, report_markdown
from bot.verify import verify_file
from rules.core import Event
from tests.bot.test_provable import published_script
from tests.bot.test_report_render import action, report
from tests.bot.test_verify_terminal import BATTLES, dice_block, play, record, saved_file, with_dice

TRICKY = "*weather* `draw 5` · `draw 1` _x_ [a](b) # <@1>"
CLOSE = f"""\
/as Gina
/game undo
/as Bob
/roll dice:2d6 reason:"{TRICKY}"
/as Gina
/roll dice:1d20 secret:true
/roll dice:1d1 reason:one
/game end
/game report
/campaign export
"""


@dataclass(frozen=True)
class Battle:
    folder: Path
    report: str  # the report's text
    export: str  # the campaign export's text
    end_card: str
    script: Path  # docs/verify.md's script, saved as a file

    @property
    def block(self) -> dict[str, Any]:
        return dice_block(self.report)


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Battle]:
    folder = tmp_path_factory.mktemp("tampering")
    records = play(folder / "table.sqlite3", BATTLES["nsr"] + CLOSE)
    script = folder / "verify_dice.py"
    script.write_text(published_script(), encoding="utf-8")
    yield Battle(
        folder,
        saved_file(records, "/game report").read_text(encoding="utf-8"),
        saved_file(records, "/campaign export").read_text(encoding="utf-8"),
        record(records, "/game end")["text"],
        script,
    )


def bot_verify(battle: Battle, name: str, text: str) -> tuple[int, list[str]]:
    path = battle.folder / name
    path.write_text(text, encoding="utf-8")
    return verify_file(path)


def script_verify(battle: Battle, name: str, text: str) -> subprocess.CompletedProcess[str]:
    path = battle.folder / name
    path.write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-I", str(battle.script), str(path)], capture_output=True, text=True, timeout=60, check=False
    )


def cli_verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "verify", str(path)], capture_output=True, text=True, timeout=120, check=False
    )


def fails_in_both(battle: Battle, name: str, text: str, sentence: str) -> None:
    """Both checkers fail on ``text`` with ``sentence`` (the script's capitalised), and no traceback."""
    status, lines = bot_verify(battle, name, text)
    assert (status, lines[0]) == (1, f"Battle 1: {sentence[:1].lower()}{sentence[1:]}")
    done = script_verify(battle, name, text)
    assert (done.returncode, done.stdout.splitlines()[-1], done.stderr) == (
        1,
        sentence[:1].upper() + sentence[1:],
        "",
    )


def draws_of(battle: Battle) -> list[dict[str, Any]]:
    draws: list[dict[str, Any]] = battle.block["draws"]
    return draws


def narrative_line(battle: Battle, k: int) -> str:
    [line] = [line for line in battle.report.splitlines() if line.rstrip("~").endswith(f" · `draw {k}`")]
    return line


def number_of(text: str, line: str) -> int:
    """The line's number in the report, counting lines as the report writes them (line feeds)."""
    return text.split("\n").index(line) + 1


def without_lines(text: str, keep: Callable[[str], bool]) -> str:
    head, dice = text.split(DICE_MARK, 1)
    return "".join(line for line in head.splitlines(keepends=True) if keep(line)) + DICE_MARK + dice


# --- untouched --------------------------------------------------------------------------------------


def test_the_end_card_and_the_report_say_how_many_draws_and_both_checkers_pass(battle: Battle) -> None:
    draws = draws_of(battle)
    count = len(draws)
    assert battle.block["drawn"] == count
    assert [d["kind"] for d in draws].count("card") >= 2 and [d["size"] for d in draws].count(6) >= 2
    assert f"the battle drew {count} dice and cards from it (draws 0 to {count - 1})" in battle.end_card
    assert f"- Draws: {count} dice and cards (draws 0 to {count - 1}), as the battle's end card said." in battle.report
    for k in range(count):
        assert narrative_line(battle, k)
    commitment = battle.block["commitment"]
    counted = (
        f"  Commitment {commitment}: compare it with the battle's start card, and the {count} draws with its end card."
    )

    assert bot_verify(battle, "battle-1.md", battle.report) == (
        0,
        [f"Battle 1: all {count} dice and cards match.", counted],
    )
    done = script_verify(battle, "battle-1.md", battle.report)
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        counted.strip() + f"\nAll {count} dice and cards match.\n",
        "",
    )
    status, lines = bot_verify(battle, "campaign.yaml", battle.export)
    assert status == 0 and lines[0] == f"Battle 1: all {count} dice and cards match.", lines


# --- draws missing ------------------------------------------------------------------------------------


def test_the_last_draw_deleted_fails(battle: Battle) -> None:
    last = len(draws_of(battle)) - 1
    cut = with_dice(battle.report, lambda d: d["draws"].pop())
    message = f"Draw {last} is missing: the log ends at draw {last - 1}, and the battle drew {last + 1}."
    fails_in_both(battle, "cut-block.md", cut, message)
    fails_in_both(
        battle, "cut-both.md", without_lines(cut, lambda line: line != narrative_line(battle, last) + "\n"), message
    )


def test_every_draw_deleted_fails(battle: Battle) -> None:
    count = len(draws_of(battle))
    emptied = with_dice(battle.report, lambda d: d.update(draws=[]))
    emptied = without_lines(emptied, lambda line: "`draw " not in line)
    message = f"Draws 0 to {count - 1} are missing: the log lists none of the {count} the battle drew."
    fails_in_both(battle, "emptied.md", emptied, message)
    fails_in_both(battle, "no-draws.md", with_dice(emptied, lambda d: d.pop("draws")), message)


def test_empty_dice_records_fail(battle: Battle) -> None:
    count = len(draws_of(battle))
    blank = with_dice(battle.report, lambda d: d.update(draws=[{} for _ in range(count)]))
    fails_in_both(battle, "blank.md", blank, "Draw 0 cannot be read: a draw has no k, kind, size, value.")

    export = yaml.safe_load(battle.export)
    for document in export["dice"]:
        document["draws"] = []
    status, lines = bot_verify(battle, "blank-export.yaml", yaml.safe_dump(export, allow_unicode=True))
    assert status == 1
    assert (
        lines[0] == f"Battle 1: draws 0 to {count - 1} are missing: the log lists none of the {count} the battle drew."
    )
    for document in export["dice"]:
        document["draws"] = [{}] * document["drawn"]
    status, lines = bot_verify(battle, "blank-records.yaml", yaml.safe_dump(export, allow_unicode=True))
    assert (status, lines[0]) == (1, "Battle 1: draw 0 cannot be read: a draw has no k, kind, size, value.")


def test_a_report_older_than_the_count_says_so_and_passes_nothing(battle: Battle) -> None:
    old = with_dice(battle.report, lambda d: d.pop("drawn"))
    status, lines = bot_verify(battle, "old.md", old)
    assert status == 1
    assert lines[0] == (
        "Battle 1: it does not say how many draws the battle made (it was written before reports said so), "
        "so draws cut off at its end would not show: it proves nothing. Ask for /game report again for a copy "
        "that says it."
    )
    done = script_verify(battle, "old.md", old)
    assert done.returncode == 1 and "does not say how many draws the battle made" in done.stdout


# --- the narrative and the dice block disagree --------------------------------------------------------------


def first_d6(battle: Battle) -> dict[str, Any]:
    """The first die of Bob's free roll: a d6 whose reason holds markdown and forged draw tags."""
    return next(d for d in draws_of(battle) if d["reason"] == f"Bob: {TRICKY}")


def test_a_die_changed_in_the_narrative_fails(battle: Battle) -> None:
    d6 = first_d6(battle)
    line = narrative_line(battle, d6["k"])
    wrong = d6["value"] % 6 + 1
    changed = battle.report.replace(line, line.replace(f"→ **{d6['value']}**", f"→ **{wrong}**"))
    assert changed != battle.report
    fails_in_both(
        battle,
        "narrative-die.md",
        changed,
        f"Draw {d6['k']} does not match: the narrative shows d6 showing {wrong} for {d6['reason']} "
        f"(line {number_of(battle.report, line)}); the dice block has d6 showing {d6['value']} for "
        f"{d6['reason']}.",
    )


def test_a_card_changed_in_the_narrative_fails(battle: Battle) -> None:
    card = next(d for d in draws_of(battle) if d["kind"] == "card")
    line = narrative_line(battle, card["k"])
    other = "AS" if card["card"] != "AS" else "2S"
    changed = battle.report.replace(line, line.replace(f"**{card['card']}**", f"**{other}**"))
    fails_in_both(
        battle,
        "narrative-card.md",
        changed,
        f"Draw {card['k']} does not match: the narrative shows card {other} for {card['reason']} "
        f"(line {number_of(battle.report, line)}); the dice block has card {card['value']} of "
        f"{card['size']} left ({card['card']}) for {card['reason']}.",
    )


def test_a_d6_rewritten_as_a_d20_with_the_face_the_secret_gives_fails(battle: Battle) -> None:
    d6 = first_d6(battle)
    k = d6["k"]
    face = die(bytes.fromhex(battle.block["secret"]), k, 20)

    def as_d20(document: dict[str, Any]) -> None:
        document["draws"][k].update(size=20, value=face)

    line = narrative_line(battle, k)
    fails_in_both(
        battle,
        "d20.md",
        with_dice(battle.report, as_d20),
        f"Draw {k} does not match: the narrative shows d6 showing {d6['value']} for {d6['reason']} "
        f"(line {number_of(battle.report, line)}); the dice block has d20 showing {face} for {d6['reason']}.",
    )


def test_a_changed_reason_fails_in_the_block_or_in_the_narrative(battle: Battle) -> None:
    d6 = first_d6(battle)
    k = d6["k"]
    line = narrative_line(battle, k)
    number = number_of(battle.report, line)

    def reason(document: dict[str, Any]) -> None:
        document["draws"][k]["reason"] = "Bob: sunshine"

    fails_in_both(
        battle,
        "reason-block.md",
        with_dice(battle.report, reason),
        f"Draw {k} does not match: the narrative shows d6 showing {d6['value']} for {d6['reason']} (line {number}); "
        f"the dice block has d6 showing {d6['value']} for Bob: sunshine.",
    )
    fails_in_both(
        battle,
        "reason-narrative.md",
        battle.report.replace(line, line.replace("\\*weather\\*", "sunshine")),
        f"Draw {k} does not match: the narrative shows d6 showing {d6['value']} for "
        f"{d6['reason'].replace('*weather*', 'sunshine')} (line {number}); the dice block has d6 showing "
        f"{d6['value']} for {d6['reason']}.",
    )


def test_a_die_line_deleted_from_the_narrative_or_shown_twice_fails(battle: Battle) -> None:
    d6 = first_d6(battle)
    line = narrative_line(battle, d6["k"])
    fails_in_both(
        battle,
        "unshown.md",
        without_lines(battle.report, lambda kept: kept != line + "\n"),
        f"Draw {d6['k']} is not shown in the narrative: the dice block has d6 showing {d6['value']} for {d6['reason']}.",
    )
    number = number_of(battle.report, line)
    fails_in_both(
        battle,
        "twice.md",
        battle.report.replace(line, f"{line}\n{line}"),
        f"The narrative shows draw {d6['k']} twice (lines {number} and {number + 1}).",
    )


# --- deep nesting ----------------------------------------------------------------------------------------


def test_deep_json_is_refused_in_a_sentence(battle: Battle) -> None:
    head, after = battle.report.split(DICE_MARK, 1)
    start = after.index("```json") + len("```json")
    deep = (
        head
        + DICE_MARK
        + after[:start]
        + "\n"
        + "[" * 100_000
        + "]" * 100_000
        + "\n"
        + after[after.index("```", start) :]
    )
    path = battle.folder / "deep.md"
    path.write_text(deep, encoding="utf-8")
    done = cli_verify(path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2,
        "Cannot check deep.md: its dice block nests deeper than 40 levels, as no report does.\n",
        "",
    )
    script = script_verify(battle, "deep.md", deep)
    assert (script.returncode, script.stdout, script.stderr) == (
        2,
        "Cannot check: the JSON nests deeper than 40 levels, as no report does.\n",
        "",
    )
    log = battle.folder / "deep-log.json"
    log.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    block = battle.block
    done = subprocess.run(
        [sys.executable, "-I", str(battle.script), block["secret"], block["commitment"], str(log), "3"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (2, script.stdout, "")


@pytest.mark.parametrize(
    "text",
    [
        "dice: " + "[" * 20_000 + "]" * 20_000 + "\n",
        "dice:\n" + "- " * 20_000 + "x\n",
        "dice: [" + "{a: " * 20_000 + "1" + "}" * 20_000 + "]\n",
    ],
    ids=["flow-lists", "block-lists", "flow-mappings"],
)
def test_deep_yaml_is_refused_in_a_sentence(battle: Battle, text: str) -> None:
    path = battle.folder / "deep.yaml"
    path.write_text(text, encoding="utf-8")
    done = cli_verify(path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2,
        "Cannot check deep.yaml: it nests deeper than 40 levels, as no export does.\n",
        "",
    )


def test_an_export_repeating_its_draws_by_aliases_is_refused_in_a_sentence(battle: Battle) -> None:
    """YAML aliases repeat a list for the price of a name: a small file could ask for hours of hashing."""
    draws = json.dumps([{"k": 0, "kind": "die", "size": 6, "value": 1, "reason": "x"}] * 2000)
    doc = f"{{commitment: c, secret: s, drawn: 2000, draws: &d {draws}}}"
    text = f"dice:\n- &doc {doc}\n" + "- *doc\n" * 600
    status, lines = bot_verify(battle, "aliases.yaml", text)
    assert (status, lines) == (
        2,
        ["Cannot check aliases.yaml: it lists 1,202,000 draws, more than the 1,000,000 any campaign makes."],
    )


# --- the narrative's lines, drawn by the renderer ------------------------------------------------------------


def rendered_report(tmp_path: Path) -> tuple[str, list[RolledDie]]:
    """A report drawn by the renderer from a stream's dice: an action that rolled a die and turned a
    card (its event names a figure "🎲 Lucky", whose line begins like a die's), one taken back (its
    lines struck through), and a d1 (which draws nothing)."""
    stream = ProvableDice(new_secret())
    first, undone, one = (RecordingDice(stream, stream) for _ in range(3))
    first.roll(6, "Rossi: shot")
    first.draw(FULL_DECK, "the turn card")
    undone.roll(20, "Bo: a shot ~~taken back~~")
    undone.draw(FULL_DECK[1:], "the *next* card")
    one.roll(1, "a d1")
    actions = [
        action(1, Event("shot", "🎲 Lucky fires.\u2028- 🎲 d6 → 6 — x"), rolls=tuple(first.rolled)),
        action(2, Event("shot", "Bo fires."), rolls=tuple(undone.rolled), undone=True),
        action(3, rolls=tuple(one.rolled)),
    ]
    document = {
        "format": "skirmish-gm-dice",
        "battle": 1,
        "commitment": stream.commitment,
        "secret": stream.reveal(),
        "note": None,
        "drawn": stream.next_draw,
        "draws": [d.to_data() for d in stream.draws],
    }
    return report_markdown(report(actions, battle=1)) + dice_markdown(document, "battle-1.md"), [
        *first.rolled,
        *undone.rolled,
        *one.rolled,
    ]


def test_a_rendered_report_with_an_action_taken_back_and_a_d1_passes_and_each_line_counts(tmp_path: Path) -> None:
    text, rolled = rendered_report(tmp_path)
    battle = Battle(tmp_path, text, "", "", tmp_path / "verify_dice.py")
    battle.script.write_text(published_script(), encoding="utf-8")
    card = rolled[3].value
    assert f"- ~~🂠 **{card}** — the \\*next\\* card · `draw 3`~~" in text
    assert "- 🎲 d1 → **1** — a d1\n" in text
    assert "- 🎲 Lucky fires." in text
    assert bot_verify(battle, "battle-1.md", text)[0] == 0
    assert script_verify(battle, "battle-1.md", text).returncode == 0

    struck = narrative_line(battle, 3)
    number = number_of(text, struck)
    other = "AS" if card != "AS" else "2S"
    fails_in_both(
        battle,
        "struck-card.md",
        text.replace(struck, struck.replace(f"**{card}**", f"**{other}**")),
        f"Draw 3 does not match: the narrative shows card {other} for the *next* card (line {number}); the dice "
        f"block has card {rolled[3].position} of 53 left ({card}) for the *next* card.",
    )
    d1 = "- 🎲 d1 → **1** — a d1"
    number = number_of(text, d1)
    fails_in_both(
        battle,
        "untagged.md",
        text.replace(d1, "- 🎲 d6 → **6** — a d1"),
        f"Line {number} shows d6 showing 6 for a d1 with no draw number: the dice block does not list it.",
    )


def test_a_die_line_written_after_the_dice_block_is_read_too(battle: Battle) -> None:
    d6 = first_d6(battle)
    line = narrative_line(battle, d6["k"])
    number = number_of(battle.report, line)
    fails_in_both(
        battle,
        "appended.md",
        battle.report + "\n" + line + "\n",
        f"The narrative shows draw {d6['k']} twice (lines {number} and {len(battle.report.splitlines()) + 2}).",
    )


def test_the_script_refuses_a_missing_or_unclosed_file_in_a_sentence(battle: Battle) -> None:
    missing = subprocess.run(
        [sys.executable, "-I", str(battle.script), str(battle.folder / "nope.md")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert missing.returncode == 2 and missing.stdout.startswith("Cannot read ") and missing.stderr == ""
    unclosed = script_verify(battle, "unclosed.md", battle.report.rstrip().removesuffix("```"))
    assert (unclosed.returncode, unclosed.stdout, unclosed.stderr) == (
        2,
        "Cannot check: the report's dice block is not closed.\n",
        "",
    )


def test_a_report_in_progress_shows_no_draw_numbers(tmp_path: Path) -> None:
    """A gap in the numbers would tell how many dice the game master rolled in secret."""
    stream = ProvableDice(new_secret())
    dice = RecordingDice(stream, stream)
    dice.roll(6, "Rossi: shot")
    going_on = report_markdown(report([action(1, rolls=tuple(dice.rolled))], finished=False, winner=None))
    assert "- 🎲 d6 → **" in going_on and "`draw " not in going_on
    over = report_markdown(report([action(1, rolls=tuple(dice.rolled))]))
    assert over.count(" · `draw 0`") == 1
