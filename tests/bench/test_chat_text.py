"""What a chat channel gets over a short game of each ruleset (bench/chat_text.py) holds a ceiling:
after an action, what changed, not the terrain and every figure's nearest enemies again; a picture
only with the action that closes a stretch of play (a phase, a bound, a side's turn, the set-up),
never with each figure's move or each man's turn; an ordinary action's reply a screen at most."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.chat_text import GAMES, TERRAIN_HEADING, figures, play

#: The events that close a stretch of play, one of which a reply with a picture must carry (a
#: Sharpe man's turn, a "turn" event, is not one).
CLOSING = {"phase", "bound", "deployment-done", "victory"}
#: An action's reply without a picture (the cards, the dice, who is next): no more lines than this.
MOST_LINES = 40


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_short_game_posts_what_changed_and_a_picture_a_stretch(ruleset: str, tmp_path: Path) -> None:
    posted = play(ruleset, tmp_path)
    actions = [p for p in posted if p.is_action]
    assert len(actions) > 15

    assert not [p.command for p in actions if TERRAIN_HEADING in p.text or "Nearest enemies" in p.text]
    pictured = [p for p in actions if p.pictures]
    assert pictured, "a stretch of play closed in every game"
    assert all(p.pictures == 1 for p in pictured)
    assert not [p.command for p in pictured if not any(e["kind"] in CLOSING for e in p.events)]
    assert max(p.lines for p in actions if not p.pictures) <= MOST_LINES

    found = figures(posted)
    assert found["actions listing the terrain"] == 0
    assert found["action pictures"] == len(pictured) < found["action replies"] / 2
