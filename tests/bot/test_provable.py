"""Provable dice (issue 18): exact uniformity, a fixed known answer, resume, verify, and the docs' script."""

from __future__ import annotations

import ast
import hashlib
import hmac
import json
import re
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bot.dice import FULL_DECK, RecordingDice, RolledDie
from bot.provable import (
    Draw,
    ProvableDice,
    accepted,
    byte_width,
    card_index,
    commitment,
    die,
    new_secret,
    uniform,
    verify,
)
from rules.core import RuleError, roll_dice

FIXED_SECRET = bytes(range(32))
VERIFY_DOC = Path(__file__).resolve().parents[2] / "docs" / "verify.md"


def faces_over_byte_space(n: int) -> tuple[Counter[int], int]:
    """Every value m bytes can hold, mapped as the procedure maps it: results counted, rejects counted."""
    counts: Counter[int] = Counter()
    rejected = 0
    for value in range(256 ** byte_width(n)):
        result = accepted(value, n)
        if result is None:
            rejected += 1
        else:
            counts[result] += 1
    return counts, rejected


# --- the mapping is exactly uniform ------------------------------------------------------------


@pytest.mark.parametrize(("sides", "each", "rejected"), [(6, 42, 4), (10, 25, 6), (3, 85, 1), (2, 128, 0)])
def test_every_face_of_a_die_gets_the_same_count_of_bytes_and_the_rest_are_rejected(
    sides: int, each: int, rejected: int
) -> None:
    counts, thrown_away = faces_over_byte_space(sides)
    assert byte_width(sides) == 1
    assert sorted(counts) == list(range(sides))  # faces 1..sides once 1 is added
    assert set(counts.values()) == {each}
    assert thrown_away == rejected
    assert each * sides + rejected == 256


def test_2d6_is_two_dice_on_two_draw_numbers_and_every_pair_is_equally_likely() -> None:
    dice = ProvableDice(FIXED_SECRET)
    pair = roll_dice(dice, 2, 6, "2D6")
    assert [d.k for d in dice.draws] == [0, 1]
    assert pair == [die(FIXED_SECRET, 0, 6), die(FIXED_SECRET, 1, 6)]
    counts, _ = faces_over_byte_space(6)
    pairs = Counter({(a + 1, b + 1): counts[a] * counts[b] for a in counts for b in counts})
    assert len(pairs) == 36
    assert set(pairs.values()) == {42 * 42}


@pytest.mark.parametrize("count", range(1, 55))
def test_a_card_from_a_deck_of_any_size_is_exactly_uniform(count: int) -> None:
    counts, rejected = faces_over_byte_space(count)
    space = 256 ** byte_width(count)
    assert sorted(counts) == list(range(count))
    assert set(counts.values()) == {space // count}
    assert rejected == space % count


def test_a_d1000_reads_two_bytes_and_is_exactly_uniform_over_65536_values() -> None:
    assert byte_width(1000) == 2
    counts, rejected = faces_over_byte_space(1000)
    assert sorted(counts) == list(range(1000))
    assert set(counts.values()) == {65}
    assert rejected == 536


def test_byte_widths_at_the_edges() -> None:
    assert [byte_width(n) for n in (1, 2, 256, 257, 65536, 65537, 2**24, 2**24 + 1, 2**32)] == [
        0,
        1,
        1,
        2,
        2,
        3,
        3,
        4,
        4,
    ]
    assert accepted(2**32 - 1, 2**32) == 2**32 - 1  # a whole number of bytes never rejects
    with pytest.raises(ValueError):
        byte_width(2**32 + 1)
    with pytest.raises(ValueError):
        byte_width(0)


def test_rejection_reads_the_next_bytes_of_the_same_block() -> None:
    """For a d6 a byte from 252 up is thrown away and the next byte of the block is read."""
    for k in range(2000):
        block = hmac.new(FIXED_SECRET, f"{k}:0".encode("ascii"), hashlib.sha256).digest()
        if block[0] >= 252 and block[1] < 252:
            assert die(FIXED_SECRET, k, 6) == block[1] % 6 + 1
            return
    pytest.fail("no draw number among 2000 rejects its first byte for a d6")


def test_a_block_with_too_few_bytes_left_is_left_for_the_next_block() -> None:
    """3-byte reads take 10 from a 32-byte block; the 2 left over are skipped, not joined to the next."""
    n = 2**23 + 1  # three bytes, nearly half of the values rejected: some draws use up block 0
    limit = 256**3 - 256**3 % n
    for k in range(5000):
        block0 = hmac.new(FIXED_SECRET, f"{k}:0".encode("ascii"), hashlib.sha256).digest()
        if all(int.from_bytes(block0[i : i + 3], "big") >= limit for i in range(0, 30, 3)):
            block1 = hmac.new(FIXED_SECRET, f"{k}:1".encode("ascii"), hashlib.sha256).digest()
            reads = [int.from_bytes(block1[i : i + 3], "big") for i in range(0, 30, 3)]
            first = next(v for v in reads if v < limit)
            assert uniform(FIXED_SECRET, k, n) == first % n
            return
    pytest.fail("no draw number among 5000 rejects all of block 0")


# --- a fixed answer, so the procedure can never change silently --------------------------------


def test_known_answer_for_a_fixed_secret() -> None:
    assert commitment(FIXED_SECRET) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    dice = ProvableDice(FIXED_SECRET)
    assert [dice.roll(6, "d6") for _ in range(10)] == [4, 4, 5, 3, 6, 6, 5, 2, 6, 2]
    assert [dice.roll(20, "d20") for _ in range(5)] == [11, 8, 14, 19, 13]
    assert [dice.roll(1000, "d1000") for _ in range(3)] == [429, 233, 646]
    assert [dice.draw(FULL_DECK, "card") for _ in range(3)] == [FULL_DECK[37], FULL_DECK[40], FULL_DECK[24]]
    assert [card_index(FIXED_SECRET, k, 54) for k in (18, 19, 20)] == [37, 40, 24]


# --- the source ----------------------------------------------------------------------------------


def test_a_new_secret_is_32_fresh_bytes_and_its_commitment_is_its_sha256() -> None:
    first, second = new_secret(), new_secret()
    assert len(first) == 32 and first != second
    assert commitment(first) == hashlib.sha256(first).hexdigest()
    assert re.fullmatch(r"[0-9a-f]{64}", commitment(first))
    assert ProvableDice.start().commitment != ProvableDice.start().commitment


def test_resume_after_dump_and_load_gives_the_same_stream() -> None:
    unbroken = ProvableDice(FIXED_SECRET)
    interrupted = ProvableDice(FIXED_SECRET)
    for _ in range(7):
        unbroken.roll(6, "before")
        interrupted.roll(6, "before")
    unbroken.draw(FULL_DECK, "before")
    interrupted.draw(FULL_DECK, "before")
    saved = json.loads(json.dumps(interrupted.dump()))
    assert saved == {"secret": FIXED_SECRET.hex(), "next_draw": 8}
    resumed = ProvableDice.load(saved)
    after = [resumed.roll(10, "after") for _ in range(20)] + [resumed.draw(FULL_DECK[:40], "after")]
    expected = [unbroken.roll(10, "after") for _ in range(20)] + [unbroken.draw(FULL_DECK[:40], "after")]
    assert after == expected
    assert [d.k for d in resumed.draws] == list(range(8, 29))


def test_each_draw_is_recorded_with_its_number_kind_size_value_and_reason() -> None:
    dice = ProvableDice(FIXED_SECRET)
    recording = RecordingDice(dice)
    face = recording.roll(6, "Rossi: shot at Big Jim")
    card = recording.draw(["AH", "2C", "RJ"], "Bo's activation")
    assert dice.draws == [
        Draw(0, "die", 6, face, "Rossi: shot at Big Jim"),
        Draw(1, "card", 3, ["AH", "2C", "RJ"].index(card), "Bo's activation", card),
    ]
    assert [r.value for r in recording.rolled] == [str(face), card]
    assert [Draw.from_data(json.loads(json.dumps(d.to_data()))) for d in dice.draws] == dice.draws


def test_impossible_draws_are_refused_without_using_a_draw_number() -> None:
    dice = ProvableDice(FIXED_SECRET)
    with pytest.raises(RuleError, match=r"The deck is empty\."):
        dice.draw([], "empty deck")
    with pytest.raises(ValueError, match="2 to 1000 sides"):
        dice.roll(1, "a d1")
    with pytest.raises(ValueError, match="2 to 1000 sides"):
        dice.roll(1001, "a d1001")
    assert dice.next_draw == 0 and dice.draws == []
    assert dice.roll(6, "first real") == die(FIXED_SECRET, 0, 6)


def test_the_secret_does_not_show_in_the_sources_repr() -> None:
    dice = ProvableDice(FIXED_SECRET)
    assert FIXED_SECRET.hex() not in repr(dice)
    assert FIXED_SECRET.hex() not in str(dice)
    assert dice.commitment in repr(dice)
    assert dice.reveal() == FIXED_SECRET.hex()


# --- verify ------------------------------------------------------------------------------------


def battle_log(secret: bytes, draws: int = 200) -> ProvableDice:
    """A battle's worth of dice of many sizes and cards turned from a shrinking deck."""
    dice = ProvableDice(secret)
    deck = list(FULL_DECK)
    sizes = (6, 10, 3, 2, 20, 100, 1000, 6)
    for i in range(draws):
        if i % 5 == 4:
            if not deck:
                deck = list(FULL_DECK)
            deck.remove(dice.draw(deck, f"activation {i}"))
        else:
            dice.roll(sizes[i % len(sizes)], f"roll {i}")
    return dice


def test_a_log_of_200_dice_and_cards_verifies() -> None:
    dice = battle_log(FIXED_SECRET)
    result = verify(dice.reveal(), dice.commitment, dice.draws)
    assert result.ok
    assert result.checked == 200
    assert {d.kind for d in dice.draws} == {"die", "card"}
    assert result.summary() == "All 200 dice and cards match."


def test_a_log_with_one_die_changed_fails_and_names_it() -> None:
    dice = battle_log(FIXED_SECRET)
    log = list(dice.draws)
    true_face = log[57].value
    log[57] = replace(log[57], value=true_face % log[57].size + 1)
    result = verify(dice.reveal(), dice.commitment, log)
    assert not result.ok and result.commitment_matches
    assert result.checked == 57
    assert result.mismatch is not None and result.mismatch.k == 57
    assert result.summary() == (
        f"Draw 57 does not match: the log says d{log[57].size} showing {log[57].value} for roll 57; "
        f"the secret gives {true_face}."
    )


def test_a_log_with_one_card_changed_fails_and_names_it() -> None:
    dice = battle_log(FIXED_SECRET)
    log = list(dice.draws)
    entry = log[9]
    assert entry.kind == "card"
    log[9] = replace(entry, value=(entry.value + 1) % entry.size, card="RJ")
    result = verify(dice.reveal(), dice.commitment, log)
    assert result.mismatch is not None and result.mismatch.k == 9
    assert f"the secret gives card {entry.value} of {entry.size} left" in result.summary()


def test_a_changed_commitment_fails() -> None:
    dice = battle_log(FIXED_SECRET, draws=30)
    other = commitment(new_secret())
    result = verify(dice.reveal(), other, dice.draws)
    assert not result.ok and not result.commitment_matches
    assert result.mismatch is None
    assert result.summary().startswith("The commitment does not match the secret")


def test_a_missing_draw_fails_and_names_it() -> None:
    dice = battle_log(FIXED_SECRET, draws=30)
    log = dice.draws[:12] + dice.draws[13:]
    result = verify(dice.reveal(), dice.commitment, log)
    assert not result.ok
    assert result.summary().startswith("Draw 12 is missing: the log goes on with draw 13,")


def test_a_secret_that_is_not_32_bytes_of_hex_is_reported_not_raised() -> None:
    for bad in ("zz" * 32, "ab" * 31):
        result = verify(bad, commitment(FIXED_SECRET), [])
        assert not result.ok
        assert result.summary().startswith("Cannot check: the secret")


# --- the script published in docs/verify.md ---------------------------------------------------


def published_script() -> str:
    match = re.search(r"```python\n(# verify_dice\.py.*?)```", VERIFY_DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert match, "docs/verify.md has no ```python block starting with '# verify_dice.py'"
    return match.group(1)


def test_the_published_script_uses_only_the_standard_library() -> None:
    tree = ast.parse(published_script())
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    imported |= {
        node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert imported and imported <= sys.stdlib_module_names


def test_the_published_uniform_is_the_bots_uniform() -> None:
    module = ModuleType("verify_dice")
    exec(compile(published_script(), "verify_dice.py", "exec"), module.__dict__)
    sizes = (1, 2, 3, 6, 10, 54, 255, 256, 257, 1000, 65537, 2**23 + 1, 2**31 + 1, 2**32)
    for n in sizes:
        for k in range(60):
            assert module.uniform(FIXED_SECRET, k, n) == uniform(FIXED_SECRET, k, n), (n, k)


def run_published_script(
    tmp_path: Path, secret_hex: str, commitment_hex: str, log: object, *count: str
) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "verify_dice.py"
    script.write_text(published_script(), encoding="utf-8")
    log_file = tmp_path / "log.json"
    log_file.write_text(json.dumps(log), encoding="utf-8")
    command = [sys.executable, "-I", str(script), secret_hex, commitment_hex, str(log_file), *count]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def test_the_published_script_checks_a_log_the_bot_made(tmp_path: Path) -> None:
    dice = battle_log(new_secret())
    log: list[object] = [d.to_data() for d in dice.draws]
    done = run_published_script(tmp_path, dice.reveal(), dice.commitment, log, "200")
    assert (done.returncode, done.stdout, done.stderr) == (0, "All 200 dice and cards match.\n", "")
    as_lists: list[object] = [[d.k, d.kind, d.size, d.value] for d in dice.draws]
    assert run_published_script(tmp_path, dice.reveal(), dice.commitment, as_lists, "200").returncode == 0
    block = {"drawn": 200, "draws": log}  # the report's JSON block carries its count
    assert run_published_script(tmp_path, dice.reveal(), dice.commitment, block).returncode == 0


def test_the_published_script_wants_the_count_of_draws_and_fails_when_some_are_missing(tmp_path: Path) -> None:
    dice = battle_log(new_secret())
    log: list[object] = [d.to_data() for d in dice.draws]
    uncounted = run_published_script(tmp_path, dice.reveal(), dice.commitment, log)
    assert uncounted.returncode == 1
    assert uncounted.stdout.startswith("The log does not say how many draws the battle made")
    cut = run_published_script(tmp_path, dice.reveal(), dice.commitment, log[:-1], "200")
    assert (cut.returncode, cut.stdout) == (
        1,
        "Draw 199 is missing: the log ends at draw 198, and the battle drew 200.\n",
    )


def test_the_published_script_names_a_changed_die_and_a_changed_commitment(tmp_path: Path) -> None:
    dice = battle_log(new_secret())
    changed = list(dice.draws)
    changed[57] = replace(changed[57], value=changed[57].value % changed[57].size + 1)
    done = run_published_script(tmp_path, dice.reveal(), dice.commitment, [d.to_data() for d in changed], "200")
    assert done.returncode == 1
    assert done.stdout.startswith(
        f"Draw 57 does not match: the log says d{changed[57].size} showing {changed[57].value};"
    )
    assert done.stdout.strip().endswith(f"the secret gives {dice.draws[57].value}.")
    other = run_published_script(
        tmp_path, dice.reveal(), commitment(new_secret()), [d.to_data() for d in dice.draws], "200"
    )
    assert other.returncode == 1
    assert other.stdout.startswith("The commitment does not match the secret.")


def test_the_published_script_and_skirmish_gm_verify_read_a_report(tmp_path: Path) -> None:
    """The report's Dice section (as /game report writes it) is what both checkers read, with the
    narrative's die and card lines (each tagged with its draw number)."""
    from bot.render.report import dice_markdown, drawn_line

    dice = battle_log(new_secret(), draws=40)
    document: dict[str, Any] = {
        "format": "skirmish-gm-dice",
        "battle": 3,
        "commitment": dice.commitment,
        "secret": dice.reveal(),
        "note": None,
        "drawn": 40,
        "draws": [d.to_data() for d in dice.draws],
    }
    shown = [
        drawn_line(RolledDie("card", None, d.card or "", d.reason, d.k, d.size, d.value))
        if d.kind == "card"
        else drawn_line(RolledDie("die", d.size, str(d.value), d.reason, d.k))
        for d in dice.draws
    ]
    narrative = "# A battle\n\nThe log, with a reason typed as ```.\n\n" + "".join(f"- {line}\n" for line in shown)
    report = tmp_path / "battle-3.md"
    report.write_text(narrative + dice_markdown(document, report.name))
    script = tmp_path / "verify_dice.py"
    script.write_text(published_script(), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(script), str(report)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == (
        f"Commitment {dice.commitment}: compare it with the battle's start card, and the 40 draws with its end card.\n"
        "All 40 dice and cards match.\n"
    )
    cli = subprocess.run(
        [sys.executable, "-m", "bot", "verify", str(report)], capture_output=True, text=True, timeout=60, check=False
    )
    assert (cli.returncode, cli.stdout) == (
        0,
        f"Battle 3: all 40 dice and cards match.\n  Commitment {dice.commitment}: compare it with the battle's start "
        "card, and the 40 draws with its end card.\n",
    )

    document["draws"][7]["value"] = document["draws"][7]["value"] % document["draws"][7]["size"] + 1
    report.write_text(narrative + dice_markdown(document, report.name))
    cli = subprocess.run(
        [sys.executable, "-m", "bot", "verify", str(report)], capture_output=True, text=True, timeout=60, check=False
    )
    assert cli.returncode == 1
    assert cli.stdout.startswith("Battle 3: draw 7 does not match: the log says ")


def test_verify_refuses_a_file_without_dice_in_a_sentence(tmp_path: Path) -> None:
    for name, text in (("notes.md", "# My notes\n"), ("empty.yaml", "{}\n"), ("broken.md", "[unclosed")):
        path = tmp_path / name
        path.write_text(text)
        cli = subprocess.run(
            [sys.executable, "-m", "bot", "verify", str(path)], capture_output=True, text=True, timeout=60, check=False
        )
        assert cli.returncode == 2
        assert cli.stdout.startswith(f"Cannot check {name}: "), cli.stdout
        assert "Traceback" not in cli.stdout + cli.stderr
    missing = subprocess.run(
        [sys.executable, "-m", "bot", "verify", str(tmp_path / "nope.md")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert missing.returncode == 2 and missing.stdout.startswith("Cannot read ")
