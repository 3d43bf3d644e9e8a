"""bench.geometry's Sharpe rows run on the shipped farm and time what they say they time (never judged
on speed): the shot is measured through the yard wall's hard cover, and the walk jumps the wall."""

from __future__ import annotations

import pytest

from bench.sharpe_map import sharpe_rows


def test_the_sharpe_rows_measure_a_shot_and_a_walk_over_a_wall(capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[str] = []

    def once(what: object) -> tuple[float, float]:
        calls.append(repr(what()))
        return 0.1, 0.2

    rows = sharpe_rows(once)
    assert [label for label, _ in rows] == [
        "a Sharpe shot's sight, range and cover",
        "a Sharpe shot through the engine",
        "a Sharpe walk over a wall (engine)",
    ]
    said = capsys.readouterr().out
    assert "27.1″ measured, hard cover: the yard wall" in said
    assert "Martin: jump the yard wall" in said and "Martin walks 2.9″ to 34.5,22.5" in said
    assert len(calls) == 3


def test_the_way_round_rows_plan_moves_that_go_round_one_base_and_a_row_of_three() -> None:
    from bench.geometry import round_rows, thirty_features
    from rules.battlefield import FieldState, MovePlan
    from rules.ssg.engine import make_engine

    engine = make_engine()
    plans: list[MovePlan] = []

    def once(what: object) -> tuple[float, float]:
        plan = what()  # type: ignore[operator]
        assert isinstance(plan, MovePlan)
        plans.append(plan)
        return 0.1, 0.2

    field = FieldState(engine.read_map(thirty_features()))
    rows = round_rows(field, engine.terrain(), once)
    assert [label for label, _ in rows] == [
        "a move's plan round a base in the way",
        "a move's plan round a row of three bases",
    ]
    assert plans[0].went_round == ("F0",) and plans[1].went_round == ("F0", "F1", "F2")
    assert all(plan.end.x == 10 and plan.end.y == 2 and plan.travelled > 9 for plan in plans)
