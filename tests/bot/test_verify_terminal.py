"""Provable dice at the terminal, end to end: ``skirmish-gm play`` in a real process on a real SQLite
file, then ``skirmish-gm verify`` in another on the files the terminal saved (``--files``).

What these tests prove:

* a short battle of each of the five rulesets, played with no forced or seeded dice, rolls every
  die and card from the battle's secret: the start card shows the commitment, the terminal never
  prints the secret before the end, the report's JSON lists exactly the dice and cards the table
  saw (draw numbers 0, 1, 2, …), and ``verify`` on the saved report says "all N dice and cards
  match" with N the count of draws in it;
* a copy of that report with one die (or card) changed fails and names the draw, what the log
  says and what the secret gives; a copy with another commitment fails and says so;
* the stream goes on across processes on the same database: no draw number is used twice;
* a battle played with ``--seed`` or ``--dice`` says so on its cards and in its report, and
  ``verify`` reports that, never "all match" alone;
* a campaign export carries each finished battle and the free rolls between battles (revealed
  when the next battle starts), and ``verify`` checks them all; a battle in progress is left out
  and its secret is nowhere in the export.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.render.report import DICE_MARK
from tests.bot.test_console import SETUP as SSG_SETUP
from tests.bot.test_nsr_terminal import SETUP as NSR_SETUP
from tests.bot.test_sharpe_terminal import ROSTERS as SHARPE_ROSTERS

# The campaigns of the rulesets' own terminal tests, the battle started with no dice forced.
SHARPE_SETUP = SHARPE_ROSTERS + "/game start\n"

COMMITMENT = re.compile(r"Commitment `?([0-9a-f]{64})`?")
FREE_COMMITMENT = re.compile(r"Free rolls between battles: commitment `?([0-9a-f]{64})")

# Whoever won the roll-off moves, skips melee (nobody in contact), shoots and passes; the other
# side's lines are refused until its turn comes. At least two shots are fired whoever goes first.
SSG_PLAY = """\
/as Rita
/ssg next
/ssg shoot shooter:Rossi target:Bo range:10 los:clear
/ssg next
/as Bob
/ssg next
/ssg shoot shooter:Bert target:Ada range:10 los:clear
/ssg next
/as Rita
/ssg next
/ssg shoot shooter:Eli target:Bill range:10 los:clear
/ssg next
"""

# The order of movement is rolled: whichever character's turn it is shoots (the other side's lines
# are refused) and is done. Four rounds give four characters their turn: six a side cannot all fall.
SHARPE_PLAY = 4 * (
    "/as Rita\n/sharpe shoot target:Dubois range:10\n/sharpe shoot target:Leroux range:10\n/sharpe done\n"
    "/as Bob\n/sharpe shoot target:Harper range:10\n/sharpe shoot target:Sharpe range:10\n/sharpe done\n"
)

# The cards say who moves: each player chooses a unit and holds when it is theirs to choose; each
# hold turns the next card.
NSR_PLAY = "".join(
    f"/as {who}\n" + "".join(f"/decide choice:{unit}\n/nsr hold\n" for unit in units)
    for _ in range(2)
    for who, units in (("Rita", ('"1er Ligne"', "Chasseurs")), ("Bob", ('"33rd Foot"', "Militia")))
)

MEDIEVAL_SETUP = """\
/as Gina
/campaign new name:"Stamford Bridge" ruleset:medieval battlefield:table
/as Rita
/campaign join side:red
/as Gina
/decide choice:approve
/as Rita
/roster add name:Hugh kind:Knight
/roster add name:Walt kind:"Man at Arms" stats:"weapons=bow+sword armour=leather"
/as Bob
/campaign join side:blue
/as Gina
/decide choice:approve
/as Bob
/roster add name:Olaf kind:"Viking Warrior"
/roster add name:Bjorn kind:custom stats:"speed=6 bravery=4 shoot=3 fight=3 weapons=bow armour=none"
/as Gina
/game start
"""
# The roll-off's winner chooses to go first (the loser's /decide is refused); then each archer
# shoots at the other when it is his side's turn.
MEDIEVAL_PLAY = """\
/as Rita
/decide choice:first
/as Bob
/decide choice:first
/as Rita
/medieval shoot figure:Walt target:Bjorn range:10
/as Bob
/medieval shoot figure:Bjorn target:Walt range:10
/medieval endturn
/as Rita
/medieval shoot figure:Walt target:Bjorn range:10
"""

YASG_SETUP = """\
/as Gina
/campaign new name:"Talavera Farm" ruleset:yasg
/roster add name:Sharpe kind:A side:british stats:"leader=yes"
/roster add name:Harper kind:B side:british
/roster add name:Hagman kind:A side:british
/roster add name:Harris kind:B side:british
/roster add name:Ducos kind:B side:french stats:"leader=yes"
/roster add name:Leroux kind:C side:french
/roster add name:Masson kind:C side:french
/roster add name:Vidal kind:D side:french
/game start
/yasg board width:8 height:10
/yasg place figure:Sharpe square:D8 facing:north
/yasg place figure:Harper square:C8 facing:north
/yasg place figure:Ducos square:D3 facing:south
/yasg place figure:Leroux square:C3 facing:south
/yasg place figure:Hagman square:E8 facing:north
/yasg place figure:Harris square:B8 facing:north
/yasg place figure:Masson square:E3 facing:south
/yasg place figure:Vidal square:B3 facing:south
"""
# The game master plays both sides: the turn begins, initiative is rolled, each side moves (nothing),
# then four figures fire in the fire phase, in the order initiative gave (four a side: none wins).
YASG_PLAY = (
    "/yasg next\n" * 4
    + (
        "/yasg fire figure:Sharpe target:Ducos\n/yasg fire figure:Harper target:Leroux\n"
        "/yasg fire figure:Ducos target:Sharpe\n/yasg fire figure:Leroux target:Harper\n"
    )
    * 2
)

# A free roll in the open and the game master's secret roll, then the end and the report.
CLOSE = """\
/as Bob
/roll dice:2d6 reason:weather
/as Gina
/roll dice:1d20 secret:true
/game end
/game report
"""

BATTLES = {
    "ssg": SSG_SETUP + SSG_PLAY,
    "sharpe": SHARPE_SETUP + SHARPE_PLAY,
    "nsr": NSR_SETUP + NSR_PLAY,
    "medieval": MEDIEVAL_SETUP + MEDIEVAL_PLAY,
    "yasg": YASG_SETUP + YASG_PLAY,
}


# --- helpers ----------------------------------------------------------------------------------


def play(db: Path, script: str, *args: str) -> list[dict[str, Any]]:
    """``skirmish-gm play --json --files`` in a new process; no dice forced unless ``args`` say so."""
    env = {**os.environ, "SKIRMISH_GM_DATA": str(db.parent / "data")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--db", str(db), "--json", "--files", str(db.parent / "files"), *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def verify(path: Path) -> subprocess.CompletedProcess[str]:
    """``skirmish-gm verify FILE`` in a new process."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "verify", str(path)], capture_output=True, text=True, timeout=60, check=False
    )


def record(records: list[dict[str, Any]], command: str) -> dict[str, Any]:
    """The last record of ``command``, which must have been done."""
    [found] = [r for r in records if r["command"] == command][-1:]
    assert found["ok"], found
    return found


def saved_file(records: list[dict[str, Any]], command: str) -> Path:
    """The one file the terminal saved for the last ``command``."""
    [path] = record(records, command)["files"]
    return Path(path)


def commitment_on(text: str) -> str:
    match = COMMITMENT.search(text)
    assert match, f"no commitment in {text!r}"
    return match[1]


def dice_block(text: str) -> dict[str, Any]:
    """The JSON block of a report's Dice section."""
    after = text.split(DICE_MARK, 1)[1]
    start = after.index("```json") + len("```json")
    return json.loads(after[start : after.index("```", start)])


def with_dice(text: str, change: Callable[[dict[str, Any]], object]) -> str:
    """The report with its dice block changed by ``change`` (as someone editing the file would)."""
    head, after = text.split(DICE_MARK, 1)
    start = after.index("```json") + len("```json")
    end = after.index("```", start)
    document = json.loads(after[start:end])
    change(document)
    return head + DICE_MARK + after[:start] + "\n" + json.dumps(document, indent=1) + "\n" + after[end:]


def shown_at_the_table(records: list[dict[str, Any]]) -> list[str]:
    """Every die and card the terminal showed, in order (a d1 shows 1 and draws nothing)."""
    return [d["value"] for r in records if r["ok"] for d in r["dice"] if d["sides"] != 1]


def logged(document: dict[str, Any]) -> list[str]:
    """Every draw of the report's JSON as the table showed it: a die's face, a card's name."""
    return [str(d["value"]) if d["kind"] == "die" else d["card"] for d in document["draws"]]


def from_the_start(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records from the battle's /game start on."""
    starts = [i for i, r in enumerate(records) if r["command"] == "/game start" and r["ok"]]
    assert starts, "the battle did not start"
    return records[starts[-1] :]


def until(records: list[dict[str, Any]], command: str) -> list[dict[str, Any]]:
    """The records before the first ``command``."""
    index = next(i for i, r in enumerate(records) if r["command"] == command)
    return records[:index]


# --- a short battle of each ruleset ---------------------------------------------------------------


@pytest.mark.parametrize("ruleset", list(BATTLES))
def test_a_battle_with_the_secrets_dice_verifies_and_a_changed_report_does_not(ruleset: str, tmp_path: Path) -> None:
    records = play(tmp_path / "table.sqlite3", BATTLES[ruleset] + CLOSE)
    start = record(records, "/game start")
    promised = commitment_on(start["text"])
    assert "every die and card of this battle follows from a secret fixed now" in start["text"]
    assert "cannot be checked" not in start["text"]
    assert record(records, "/roll dice:1d20 secret:true")["dice"], "the game master's secret roll rolled"

    path = saved_file(records, "/game report")
    assert path.name.endswith("battle-1.md")
    text = path.read_text(encoding="utf-8")
    document = dice_block(text)
    secret = document["secret"]
    assert document["commitment"] == promised and document["note"] is None
    assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == promised
    assert f"- Secret: `{secret}`" in text

    # Until the end the terminal never prints the secret; the end card reveals it.
    before_end = until(records, "/game end")
    assert not [r["command"] for r in before_end if secret in json.dumps(r)]
    assert secret in record(records, "/game end")["text"]

    # The draws run 0, 1, 2, … and are exactly the dice and cards the table saw, in order.
    draws = document["draws"]
    assert len(draws) > 0
    assert [d["k"] for d in draws] == list(range(len(draws)))
    assert logged(document) == shown_at_the_table(from_the_start(records))
    actions = [r for r in from_the_start(records) if not r["command"].startswith(("/roll", "/game"))]
    assert shown_at_the_table(actions), f"no {ruleset} action rolled a die or turned a card"

    checked = verify(path)
    assert (checked.returncode, checked.stdout) == (
        0,
        f"Battle 1: all {len(draws)} dice and cards match.\n"
        f"  Commitment {promised}: compare it with the battle's start card, and the {len(draws)} draws with its end card.\n",
    )

    # One die changed: verify fails and names it, what the log says and what the secret gives.
    die = next(d for d in draws if d["kind"] == "die")
    wrong = die["value"] % die["size"] + 1

    def change(changed: dict[str, Any]) -> None:
        changed["draws"][die["k"]]["value"] = wrong

    tampered = tmp_path / "tampered-die.md"
    tampered.write_text(with_dice(text, change), encoding="utf-8")
    failed = verify(tampered)
    assert (failed.returncode, failed.stdout) == (
        1,
        f"Battle 1: draw {die['k']} does not match: the log says d{die['size']} showing {wrong} for "
        f"{die['reason']}; the secret gives {die['value']}.\n"
        f"  Commitment {promised}: compare it with the battle's start card, and the {len(draws)} draws with its end card.\n",
    )

    # Another commitment: verify fails and says the commitment is not the secret's.
    other = hashlib.sha256(b"another secret").hexdigest()
    swapped = tmp_path / "tampered-commitment.md"
    swapped.write_text(with_dice(text, lambda d: d.update(commitment=other)), encoding="utf-8")
    failed = verify(swapped)
    assert (failed.returncode, failed.stdout) == (
        1,
        "Battle 1: the commitment does not match the secret: these are not the dice promised at the start. "
        f"The {len(draws)} dice and cards follow from the revealed secret, but it is not the committed one.\n"
        f"  Commitment {other}: compare it with the battle's start card, and the {len(draws)} draws with its end card.\n",
    )


def test_a_changed_card_is_named_with_the_card_the_secret_gives(tmp_path: Path) -> None:
    """NSR turns cards: one card's position changed in the log fails verify, which names both cards."""
    records = play(tmp_path / "table.sqlite3", BATTLES["nsr"] + CLOSE)
    text = saved_file(records, "/game report").read_text(encoding="utf-8")
    cards = [d for d in dice_block(text)["draws"] if d["kind"] == "card"]
    assert cards, "the NSR battle turned no card"
    card = cards[-1]
    wrong = (card["value"] + 1) % card["size"]

    def change(document: dict[str, Any]) -> None:
        document["draws"][card["k"]]["value"] = wrong

    tampered = tmp_path / "tampered-card.md"
    tampered.write_text(with_dice(text, change), encoding="utf-8")
    failed = verify(tampered)
    assert failed.returncode == 1
    assert failed.stdout.splitlines()[0] == (
        f"Battle 1: draw {card['k']} does not match: the log says card {wrong} of {card['size']} left "
        f"({card['card']}) for {card['reason']}; the secret gives card {card['value']} of {card['size']} left."
    )


# --- across a restart ------------------------------------------------------------------------------


def test_the_stream_goes_on_across_processes_and_never_repeats_a_draw_number(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    first = play(db, SSG_SETUP + '/roll dice:2d6 reason:"first process"\n')
    promised = commitment_on(record(first, "/game start")["text"])
    assert len(record(first, '/roll dice:2d6 reason:"first process"')["dice"]) == 2
    drawn_first = len(shown_at_the_table(from_the_start(first)))

    second = play(db, "/game status\n" + SSG_PLAY + '/as Rita\n/roll dice:3d6 reason:"second process"\n')
    assert commitment_on(record(second, "/game status")["text"]) == promised
    assert len(record(second, '/roll dice:3d6 reason:"second process"')["dice"]) == 3
    drawn_second = len(shown_at_the_table(second))

    third = play(db, CLOSE)
    path = saved_file(third, "/game report")
    document = dice_block(path.read_text(encoding="utf-8"))
    draws = document["draws"]
    assert document["commitment"] == promised
    assert [d["k"] for d in draws] == list(range(len(draws)))  # none repeated, none missing
    assert len(draws) == drawn_first + drawn_second + len(shown_at_the_table(third))
    assert logged(document) == shown_at_the_table(from_the_start(first) + second + third)
    second_process = [d["k"] for d in draws if d["reason"] == "Rita: second process"]
    assert len(second_process) == 3 and second_process[0] == drawn_first + drawn_second - 3

    checked = verify(path)
    assert (checked.returncode, checked.stdout) == (
        0,
        f"Battle 1: all {len(draws)} dice and cards match.\n"
        f"  Commitment {promised}: compare it with the battle's start card, and the {len(draws)} draws with its end card.\n",
    )


# --- seeded and forced dice --------------------------------------------------------------------------


def test_a_seeded_battle_says_so_everywhere_and_verify_does_not_call_it_checked(tmp_path: Path) -> None:
    records = play(tmp_path / "table.sqlite3", SSG_SETUP + "/game status\n" + SSG_PLAY + CLOSE, "--seed", "7")
    seeded = "its dice were seeded at the terminal (repeatable, not secret): they cannot be checked"
    assert seeded in record(records, "/game start")["text"]
    assert seeded in record(records, "/game status")["text"]
    assert (
        "Its dice were seeded at the terminal (repeatable, not secret), so they cannot all be checked."
        in (record(records, "/game end")["text"])
    )
    path = saved_file(records, "/game report")
    text = path.read_text(encoding="utf-8")
    assert "- This battle's dice were seeded at the terminal: repeatable, not secret, not provable." in text
    assert dice_block(text)["note"] == "seeded"

    checked = verify(path)
    assert checked.returncode == 1
    assert checked.stdout.startswith("Battle 1: its dice were seeded at the terminal, not drawn from the secret."), (
        checked.stdout
    )
    assert not re.fullmatch(r"Battle 1: all \d+ dice and cards match\.\n", checked.stdout)


def test_a_battle_with_forced_dice_says_so_and_verify_reports_it(tmp_path: Path) -> None:
    """The roll-off is forced (2, 2, 5, 3: red first); the rest come from the secret, but the battle
    as a whole cannot be checked, and says so."""
    records = play(tmp_path / "table.sqlite3", SSG_SETUP + "/game status\n" + SSG_PLAY + CLOSE, "--dice", "2,2,5,3")
    start = record(records, "/game start")
    assert [d["value"] for d in start["dice"]] == ["2", "2", "5", "3"]
    forced = "some of its dice were forced at the terminal: they cannot be checked"
    assert forced in start["text"] and forced in record(records, "/game status")["text"]
    assert (
        "Some of its dice were forced at the terminal, so they cannot all be checked."
        in (record(records, "/game end")["text"])
    )
    path = saved_file(records, "/game report")
    text = path.read_text(encoding="utf-8")
    assert "- Some of this battle's dice were forced at the terminal: those cannot be checked." in text
    document = dice_block(text)
    assert document["note"] == "forced"
    # The forced roll-off is not in the stream: the draws are the dice rolled after it.
    assert logged(document) == shown_at_the_table(from_the_start(records))[4:]

    checked = verify(path)
    assert checked.returncode == 1
    assert checked.stdout.startswith("Battle 1: some of its dice were forced at the terminal and cannot be checked."), (
        checked.stdout
    )
    assert not re.fullmatch(r"Battle 1: all \d+ dice and cards match\.\n", checked.stdout)


# --- a campaign export ---------------------------------------------------------------------------


def test_a_campaign_export_checks_each_battle_and_the_free_rolls_between_them(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    between = """\
/as Gina
/roll dice:1d6 reason:"first battle"
/game end
/as Rita
/roll dice:3d6 reason:weather
/as Bob
/roll dice:1d20 reason:ambush
/as Gina
/game start
/campaign export
/roll dice:2d6 reason:"second battle"
/game end
/campaign export
"""
    records = play(db, SSG_SETUP + between)
    for command in ('/roll dice:1d6 reason:"first battle"', '/roll dice:2d6 reason:"second battle"'):
        record(records, command)
    free = [r for r in records if r["command"] in ("/roll dice:3d6 reason:weather", "/roll dice:1d20 reason:ambush")]
    assert len(free) == 2 and all(r["ok"] for r in free)
    promised = {FREE_COMMITMENT.findall(r["text"])[0] for r in free}
    assert len(promised) == 1, "both free rolls come from one stream"
    (free_commitment,) = promised

    # The next battle's start card reveals the free rolls' secret.
    second_start = [r for r in records if r["command"] == "/game start"][-1]
    revealed = re.search(r"secret `?([0-9a-f]{64})`? \(commitment `?([0-9a-f]{64})", second_start["text"])
    assert revealed, second_start["text"]
    assert revealed[2] == free_commitment
    assert "4 dice drawn (draws 0 to 3)" in second_start["text"]  # the count verify asks to compare
    assert hashlib.sha256(bytes.fromhex(revealed[1])).hexdigest() == free_commitment
    second_battle = commitment_on(second_start["text"])

    exports = [Path(p) for r in records if r["command"] == "/campaign export" for p in r["files"]]
    assert len(exports) == 2

    # While battle 2 goes on, the export leaves it out (and keeps its secret back).
    during, after = exports
    checked = verify(during)
    assert checked.returncode == 0, checked.stdout
    lines = checked.stdout.splitlines()
    assert re.fullmatch(r"Battle 1: all \d+ dice and cards match\.", lines[0])
    assert re.fullmatch(
        r"  Commitment [0-9a-f]{64}: compare it with the battle's start card, and the \d+ draws with its end card\.",
        lines[1],
    )
    assert lines[2:] == [
        "Free rolls (stream 1): all 4 dice and cards match.",
        f"  Commitment {free_commitment}: compare it with the first free roll's card, and the 4 draws with the card that revealed them.",
    ]
    assert second_battle not in during.read_text(encoding="utf-8")

    checked = verify(after)
    assert checked.returncode == 0, checked.stdout
    first, _, second, second_commitment, free_line, _ = checked.stdout.splitlines()
    second_count = next(d for d in _export_documents(after) if d.get("battle") == 2)["drawn"]
    assert second_commitment == (
        f"  Commitment {second_battle}: compare it with the battle's start card, and the {second_count} draws with "
        "its end card."
    )
    assert re.fullmatch(r"Battle 1: all \d+ dice and cards match\.", first)
    assert re.fullmatch(r"Battle 2: all \d+ dice and cards match\.", second)
    assert free_line == "Free rolls (stream 1): all 4 dice and cards match."
    free_draws = next(d for d in _export_documents(after) if d.get("free_rolls"))["draws"]
    assert [(d["k"], d["size"]) for d in free_draws] == [(0, 6), (1, 6), (2, 6), (3, 20)]
    shown = [d["value"] for r in free for d in r["dice"]]
    assert [str(d["value"]) for d in free_draws] == shown

    # One free roll changed in the export: verify names the stream and the draw.
    tampered = tmp_path / "tampered-export.yaml"
    text = after.read_text(encoding="utf-8")
    wrong = free_draws[3]["value"] % 20 + 1
    tampered.write_text(_changed_free_roll(text, 3, wrong), encoding="utf-8")
    failed = verify(tampered)
    assert failed.returncode == 1
    assert f"Free rolls (stream 1): draw 3 does not match: the log says d20 showing {wrong} for Bob: ambush; " in (
        failed.stdout
    ), failed.stdout


def _export_documents(path: Path) -> list[dict[str, Any]]:
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    documents: list[dict[str, Any]] = data["dice"]
    return documents


def _changed_free_roll(text: str, k: int, value: int) -> str:
    import yaml

    header = "".join(line + "\n" for line in text.splitlines() if line.startswith("#"))
    data = yaml.safe_load(text)
    [stream] = [d for d in data["dice"] if d.get("free_rolls")]
    stream["draws"][k]["value"] = value
    return header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
