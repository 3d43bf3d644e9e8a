"""rules.words: the shared way a measure that decided a comparison is said."""

from __future__ import annotations

import pytest

from rules.words import measured_against


@pytest.mark.parametrize(
    "value, limit, said",
    [
        (24.04, 24, "24.04″"),  # "24.0″" would read as within a 24″ reach
        (31.1127, 24, "31.1″"),  # tenths when tenths already tell them apart
        (23.96, 24, "23.96″"),
        (6.0004, 6, "6.0004″"),
        (5.96, 6.02, "5.96″"),
        (6.02, 5.96, "6.02″"),
    ],
)
def test_a_deciding_measure_shows_enough_digits_to_read_apart_from_its_limit(
    value: float, limit: float, said: str
) -> None:
    assert measured_against(value, limit) == said
