"""bench.tail: what the slowest answers overlapped, from the pauses bench.traced wrote."""

from __future__ import annotations

from pathlib import Path

from bench.tail import Pause, explain, read_trace


def test_a_trace_is_read_back(tmp_path: Path) -> None:
    trace = tmp_path / "bot.trace"
    trace.write_text("gc 10.000000 2.500 gen2\nlag 11.000000 7.000 cpu 6.5 ms\ncheckpoint 12.000000 9.000 \n")
    assert read_trace(trace) == [
        Pause("gc", 10.0, 0.0025, "gen2"),
        Pause("lag", 11.0, 0.007, "cpu 6.5 ms"),
        Pause("checkpoint", 12.0, 0.009, ""),
    ]


def test_each_slow_answer_is_put_down_to_what_it_overlapped() -> None:
    answered = [(float(n), 0.001) for n in range(96)]  # fast answers, one a second
    answered += [(10.5, 0.020), (20.5, 0.020), (30.5, 0.020), (40.5, 0.020)]  # the slowest four
    pauses = [
        Pause("checkpoint", 10.51, 0.005),
        Pause("lag", 10.51, 0.006, "cpu 5.0 ms"),
        Pause("gc", 20.50, 0.002, "gen2"),
        Pause("lag", 30.51, 0.009, "cpu 1.0 ms"),
    ]
    lines = explain(answered, pauses, quantile=0.96)
    assert (
        lines[0] == "the 4 answers of 20.0 ms or more overlapped: checkpoint 1, gc 1, lag 1, nothing in the process 1"
    )
    assert lines[1].startswith("checkpoint: 1 pauses") and "the longest 5.0 ms" in lines[1]
    assert lines[3].startswith("lag: 2 pauses") and "15 ms in all" in lines[3]


def test_no_answers_no_lines() -> None:
    assert explain([], [Pause("gc", 1.0, 0.1)]) == []
