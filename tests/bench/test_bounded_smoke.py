"""The bounded-work benchmark runs end to end in its smoke mode and prints its figures (never
judged on speed)."""

from __future__ import annotations

import math

import pytest

from bench.bounded import main


async def test_the_bounded_work_benchmark_smoke_run_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    figures = await main(["--smoke"])
    printed = capsys.readouterr().out
    assert "p99 loaded / quiet:" in printed and "heaviest map imports" in printed
    rows = {row["phase"]: row for row in figures["rows"]}
    assert set(rows) == {"quiet", "loaded"}
    for row in rows.values():
        assert row["sent"] > 0 and row["answered"] == row["sent"]
        assert not math.isnan(row["p99_ms"])
    assert figures["ratio"] > 0
    assert figures["imports_sent"] >= 1 and figures["odds_sent"] >= 1
    assert figures["errors"] == 0
