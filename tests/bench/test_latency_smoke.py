"""The benchmark runs end to end in its smoke mode and reports every figure (never judged on speed)."""

from __future__ import annotations

import math

from bench.latency import main


async def test_the_benchmark_smoke_run_reports_its_figures() -> None:
    figures = await main(["--smoke", "--trace"])
    runs = {row["run"] for row in figures["rows"]}
    assert len(runs) == 2
    for row in figures["rows"]:
        assert row["sent"] > 0 and row["answered"] == row["sent"]
        assert not math.isnan(row["p99_ms"])
        assert row["cpu_ms_each"] > 0
    assert figures["errors"] == 0
    assert figures["memory_mb"]["bot"] > 0 and figures["startup_s"]["bot"] > 0
    assert {"warm-up", "steady 40/s", "burst of 40"} <= set(figures["ratios"])
    assert set(figures["ratios"]) - {"warm-up", "steady 40/s", "burst of 40"} <= {"steady, answers without a picture"}
    assert len(figures["round_ratios"]) == 2 and all(r > 0 for r in figures["round_ratios"])
    for label, lines in figures["tails"].items():  # both ran under bench.traced, which saw their pauses
        assert lines and lines[0].startswith("the ") and "nothing in the process" in lines[0], (label, lines)
    assert len(figures["tails"]) == 2
