"""YASG's loose ends of issue 19 in the engine: a look changes nothing in the state (so /game undo
never takes it back as an action), a figure already out takes no second wound card, a refused shot
says the figure's own reason before its side being done, and a move that turns a figure says so."""

from __future__ import annotations

import pytest

from rules.yasg.engine import YasgEngine, make_engine
from rules.yasg.state import PendingHit
from tests.rules.test_yasg_combat import TEST_TABLE, duel
from tests.rules.test_yasg_support import BRITISH, FRENCH, act, change, dump, events, kinds, refuse, texts


@pytest.fixture
def tested() -> YasgEngine:
    return make_engine(TEST_TABLE)


def test_a_look_changes_nothing_in_the_state(tested: YasgEngine) -> None:
    """A look rolls nothing and leaves the state as it was, in every phase it may be taken."""
    state = duel(tested)
    out = act(tested, state, "look", figure="Harper", target="Ducos")
    assert kinds(out) == ["look"] and dump(tested, out.state) == dump(tested, state)
    assert events(out, "look")[0]["needed"] > 0


def test_a_figure_already_out_takes_no_second_wound_card(tested: YasgEngine) -> None:
    """Two hits on Ducos in one fire phase, the first killing: the second is said, as no wound."""
    state = duel(tested)
    state.hits = [
        PendingHit("Ducos", "Harper", "killed", "shot by Harper"),
        PendingHit("Ducos", "Sharpe", "minor", "shot by Sharpe"),
    ]
    state.done = [BRITISH]
    out = act(tested, state, "next", as_side=FRENCH)
    assert "wound" not in kinds(out) and kinds(out).count("casualty") == 1
    assert "Ducos is already out: shot by Sharpe changes nothing." in texts(out)
    assert events(out, "hits")[0] == {"figure": "Ducos", "by": "Sharpe", "result": "minor"}


def test_a_refused_shot_after_the_side_is_done_says_the_figures_own_reason(tested: YasgEngine) -> None:
    state = change(tested, duel(tested), "Harper", fired=True)
    state.done = [BRITISH]
    refuse(
        tested, state, "fire", "Harper has already fired this turn.", as_side=BRITISH, figure="Harper", target="Ducos"
    )


def test_a_move_that_turns_the_figure_says_so(tested: YasgEngine) -> None:
    state = duel(tested)
    state.phase, state.mover, state.initiative = "movement", BRITISH, [BRITISH, FRENCH]
    out = act(tested, state, "move", figure="Harper", to="F8")
    [move] = events(out, "move")
    assert (move["facing"], move["turned_from"]) == ("e", "n")
    assert "Harper walks E8 → F8 (1 square), turning from N to face E; it may still fire." in texts(out)
    straight = act(tested, state, "move", figure="Harper", to="E7")
    assert events(straight, "move")[0]["turned_from"] is None
    assert "Harper walks E8 → E7 (1 square), facing N; it may still fire." in texts(straight)
