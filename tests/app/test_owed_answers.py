"""The notice a restarted bot posts of what was applied but never answered: one per channel, short
(a line an action, ten at the most, the rest counted), a secret roll's result kept secret."""

from __future__ import annotations

from bot.app.answers import LISTED, notice
from bot.store.records import OwedAnswer


def owed(n: int, *, secret: bool = False, channel: int = 7) -> OwedAnswer:
    said = "Rita rolls in secret 1d20: 17" if secret else f"Rossi moves {n}″"
    return OwedAnswer(n, 1, channel, 42, "Rita", f"/ssg move figure:Rossi distance:{n}", said, secret)


def test_a_notice_lists_each_action_with_what_came_of_it_and_no_more_than_ten() -> None:
    told = notice(1, 7, [owed(n) for n in range(1, 16)])
    [card] = told.reply.cards
    lines = card.description.splitlines()
    assert lines[1] == "• Rita: /ssg move figure:Rossi distance:1 — Rossi moves 1″"
    assert len(lines) == 1 + LISTED + 1 and lines[-1] == "…and 5 more: see /game log."
    assert told.action_ids == list(range(1, 16))  # all of them are settled by it
    assert not told.reply.ephemeral and not told.reply.ping_user_ids


def test_a_secret_roll_is_told_without_its_result() -> None:
    [card] = notice(1, 7, [owed(1, secret=True)]).reply.cards
    assert "17" not in card.description and "Rita: /ssg move" in card.description
