"""A few self-played battles per ruleset, on fixed seeds: each ends with a winner, or reaches its
action bound and is counted apart, with no invariant broken. The same seed plays the same battle,
and its lines fed to ``skirmish-gm play --battle-seed`` (a real process) give the same game."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.selfplay.battle import Battle, Outcome
from bot.selfplay.table import Table

ALLOWED: frozenset[str] = frozenset()
ARGS = "--ruleset ssg --battles 2 --seed 2 --map table --jobs 1"
ROOT = Path(__file__).resolve().parents[2]


def battle(slug: str, seed: int, where: str | None, tmp: Path, bound: int = 600) -> Outcome:
    return asyncio.run(Battle(slug, seed, tmp, where=where, bound=bound, allow=ALLOWED).play())


@pytest.mark.parametrize(
    ("slug", "seed", "where"),
    [("ssg", 2, "table"), ("ssg", 3, "table"), ("medieval", 3, "table"), ("sharpe", 2, "table"), ("nsr", 1, "table")],
)
def test_a_battle_at_a_table_is_played_to_a_winner(slug: str, seed: int, where: str, tmp_path: Path) -> None:
    outcome = battle(slug, seed, where, tmp_path)
    assert outcome.failure is None, outcome.failure
    assert outcome.ended.startswith("won by"), outcome.ended
    assert outcome.actions > 20 and outcome.where == "table"


@pytest.mark.parametrize(("slug", "seed", "where"), [("ssg", 3, "crossroads"), ("yasg", 1, None)])
def test_a_battle_that_reaches_its_bound_is_counted_apart(
    slug: str, seed: int, where: str | None, tmp_path: Path
) -> None:
    outcome = battle(slug, seed, where, tmp_path, bound=60)
    assert outcome.failure is None, outcome.failure
    assert outcome.ended == "bound" and outcome.bounded
    assert outcome.lines[-2:] == ["/game end", "/game report"] or "/game end" in outcome.lines


def test_the_same_seed_plays_the_same_battle(tmp_path: Path) -> None:
    first = battle("ssg", 2, "table", tmp_path / "a")
    again = battle("ssg", 2, "table", tmp_path / "b")
    assert first.lines == again.lines and first.ended == again.ended


async def final_state(db: Path) -> object:
    table = Table(db, 0)
    await table.open()
    try:
        snap = await table.snapshot()
        assert snap.game is not None
        return snap.game.state
    finally:
        await table.close()


def test_a_battles_lines_replay_at_the_terminal(tmp_path: Path) -> None:
    outcome = battle("ssg", 3, "table", tmp_path)
    assert outcome.failure is None
    replayed = tmp_path / "replayed.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--db", str(replayed), "--battle-seed", "3", "--json"],
        input="\n".join(outcome.lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,  # a hang guard: a loaded machine may take minutes
        check=True,
    )
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(records) == len(outcome.lines)
    original = asyncio.run(final_state(tmp_path / "ssg-3.sqlite3"))
    assert asyncio.run(final_state(replayed)) == original


def test_the_selfplay_command_plays_and_prints_its_figures(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "selfplay", *ARGS.split(), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,  # a hang guard: a loaded machine may take minutes
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("ssg seed 2 on table: ") and "won by" in lines[0]
    assert lines[-1].startswith("self-play: 2 battles in ") and "failures 0" in lines[-1]
    assert "battles/s" in lines[-1] and "actions/battle" in lines[-1] and "slowest action" in lines[-1]
