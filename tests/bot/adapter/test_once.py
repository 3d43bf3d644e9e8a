"""The interactions a process remembers taking: each once, for Discord's 15 minutes, and no more
of them than it can hold."""

from __future__ import annotations

from bot.adapter.once import Deliveries


def test_an_interaction_is_taken_once_and_forgotten_after_its_time() -> None:
    now = [0.0]
    deliveries = Deliveries(remembered=60.0, clock=lambda: now[0])
    assert deliveries.first(1) and not deliveries.first(1)
    now[0] = 59.0
    assert not deliveries.first(1)
    now[0] = 61.0
    assert deliveries.first(2)  # the look for a newcomer forgets what is past its time
    assert len(deliveries) == 1 and deliveries.first(1)


def test_the_oldest_are_forgotten_first_when_full() -> None:
    deliveries = Deliveries(capacity=3, clock=lambda: 0.0)
    for interaction_id in range(5):
        assert deliveries.first(interaction_id)
    assert len(deliveries) == 3
    assert not deliveries.first(4) and not deliveries.first(3)
