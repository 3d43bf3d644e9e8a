"""bench.geometry's NSR charge and fall-back rows run on the shipped village and time what they say
they time (never judged on speed): the charge's way, a fall-back stopped by a unit behind, one on
clear ground and a Joker fall-back from the nearest enemy, each leaving the state as it found it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bench.geometry import nsr_rows


def test_the_nsr_rows_time_a_charge_and_three_fall_backs(capsys: pytest.CaptureFixture[str]) -> None:
    said: list[str] = []

    def twice(what: Callable[[], object]) -> tuple[float, float]:
        first, again = repr(what()), repr(what())
        said.append(first)
        assert again == first  # a fall-back puts its unit back
        return 0.1, 0.2

    rows = nsr_rows(twice)
    assert [label for label, _ in rows] == [
        "an NSR charge check (charge_way)",
        "an NSR fall-back stopped by a unit",
        "an NSR fall-back on clear ground",
        "an NSR Joker fall-back (nearest enemy)",
    ]
    printed = capsys.readouterr().out
    assert "NSR charge: 4.00 in to go." in printed
    assert "moves 4.5″ back to 36,28.5, stopped by Royal Scots" in printed
    assert "moves 6″ back to 24.18,16.09" in printed and "moves 1.1″ back to 37,4.6, stopped by Hussars" in printed
    assert said[1:] == [
        "'moves 4.5″ back to 36,28.5, stopped by Royal Scots'",
        "'moves 6″ back to 24.18,16.09'",
        "'moves 1.1″ back to 37,4.6, stopped by Hussars'",
    ]
