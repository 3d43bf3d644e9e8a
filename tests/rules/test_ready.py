"""Who may still act (``Engine.ready``), for the select under "your move": in SSG the figures with
inches left and in contact with nobody, then those that have not shot; in the medieval game those
not yet activated this turn (and the one acting now); in YASG the figures that may move while their
side moves, then those that may fire. Sharpe's order and NSR's cards name who acts: they offer none."""

from __future__ import annotations

from rules import get_engine
from rules.medieval.engine import make_engine as medieval_engine
from rules.ssg.engine import make_engine as ssg_engine
from rules.yasg.engine import make_engine as yasg_engine
from tests.rules import test_medieval_engine as med
from tests.rules import test_ssg_engine as ssg
from tests.rules.test_yasg_combat import TEST_TABLE, duel
from tests.rules.test_yasg_support import BRITISH, FRENCH, F, act, scene


def test_ssg_offers_who_may_still_move_then_who_may_still_shoot() -> None:
    engine = ssg_engine()
    state = ssg.begin(engine)
    assert engine.ready(state, "red") == ssg.RED and engine.ready(state, "blue") == []
    state = ssg.play(engine, state, "move", figure="Rossi", distance=4).state
    state = ssg.play(engine, state, "move", figure="Garcia", distance=2).state
    assert engine.ready(state, "red") == [n for n in ssg.RED if n != "Rossi"]  # Garcia has 2″ left
    state = ssg.play(engine, state, "move", figure="Chen", distance=1, contact="Big Jim").state
    assert "Chen" not in engine.ready(state, "red")  # in contact: it fights, it does not move
    state = ssg.play(engine, state, "next").state
    assert state.phase == "melee" and engine.ready(state, "red") == []
    state = ssg.play(engine, state, "melee", 6, 1).state
    shooters = engine.ready(state, "red")
    assert "Rossi" in shooters and "Chen" in shooters  # the melee is over: anyone standing may shoot
    state = ssg.play(engine, state, "shoot", 1, shooter="Rossi", target="Slim", range=10, los="clear").state
    assert "Rossi" not in engine.ready(state, "red")


def test_the_medieval_game_offers_the_figures_not_yet_activated() -> None:
    engine = medieval_engine()
    state = med.begin(engine)
    everyone = [n for n, _, _ in med.RED]
    assert engine.ready(state, "red") == everyone and engine.ready(state, "blue") == []
    state = med.play(engine, state, "move", figure="Hugh", distance=2).state
    assert engine.ready(state, "red") == everyone  # Hugh is acting now: he may carry on
    state = med.play(engine, state, "move", figure="Walt", distance=2).state
    assert engine.ready(state, "red") == [n for n in everyone if n != "Hugh"]


def test_yasg_offers_who_may_move_while_its_side_moves_then_who_may_fire() -> None:
    engine = yasg_engine(TEST_TABLE)
    state = scene(
        engine, F("Sharpe", BRITISH, "A", "A10", "e", leader=True), F("Ducos", FRENCH, "B", "E4", "s"), mover=BRITISH
    )
    assert engine.ready(state, BRITISH) == ["Sharpe"] and engine.ready(state, FRENCH) == []
    state = act(engine, state, "move", figure="Sharpe", to="B10").state
    assert engine.ready(state, BRITISH) == []  # it has moved

    fire = duel(engine)
    assert engine.ready(fire, BRITISH) == ["Sharpe", "Harper"] and engine.ready(fire, FRENCH) == ["Ducos", "Leroux"]
    fire = act(engine, fire, "fire", 4, 5, 7, figure="Harper", target="Ducos").state
    # Sharpe, facing east from A10, has nobody in his arc: with Harper's shot the British are done.
    assert fire.done == [BRITISH] and engine.ready(fire, BRITISH) == []
    assert engine.ready(fire, FRENCH) == ["Ducos", "Leroux"]


def test_where_the_order_or_the_cards_choose_nobody_is_offered() -> None:
    for slug in ("sharpe", "nsr"):
        engine = get_engine(slug)
        assert engine.ready(None, "anyone") == ()
