"""What the setup and the turn share: the context of one action, finding figures and sides,
reading options."""

from __future__ import annotations

import functools
from typing import Any

from rules.core import Context, Event, PhasePayload, RuleError, find_figure, short
from rules.words import match_name
from rules.yasg.board import SIDE_WORDS
from rules.yasg.data import YasgTables
from rules.yasg.judge import Judge
from rules.yasg.state import Facing, YasgFigure, YasgState

FACING_WORDS: dict[str, Facing] = {
    "n": "n",
    "e": "e",
    "s": "s",
    "w": "w",
    **{SIDE_WORDS[k]: k for k in ("n", "e", "s", "w")},
}


class Ctx(Context[YasgState, YasgTables]):
    """One YASG action being applied (:class:`rules.core.Context`); ``side`` is one of the game's
    sides, as the players' side was matched."""

    @functools.cached_property
    def judge(self) -> Judge:
        """What the rules measure on this board: classes, shots, contact, morale."""
        return Judge(self.t)


def figure(state: YasgState, wanted: Any, what: str = "a figure") -> YasgFigure:
    if not isinstance(wanted, str) or not wanted.strip():
        raise RuleError(f"Name {what}.")
    name = find_figure([f.name for f in state.figures], wanted)
    return next(f for f in state.figures if f.name == name)


def own_figure(state: YasgState, wanted: Any, side: str | None, by_gm: bool, doing: str) -> YasgFigure:
    """A figure of the acting side (the game master may name any), still in the fight."""
    fig = figure(state, wanted)
    if not by_gm and fig.side != side:
        raise RuleError(f"{fig.name} fights for {fig.side}: you may only {doing} your own figures.")
    if fig.out:
        raise RuleError(f"{fig.name} is out of the fight.")
    return fig


def side_of(state: YasgState, wanted: Any) -> str | None:
    return match_name(state.sides, wanted)


def facing(value: Any) -> Facing | None:
    """``n``/``north`` (any case) as ``n``; None when not given."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    found = FACING_WORDS.get(str(value).strip().casefold())
    if found is None:
        raise RuleError(f"{short(str(value))} is not a facing: use n, e, s or w (north, east, south, west).")
    return found


def sides_list(value: Any) -> list[str]:
    """``"n e"``, ``"north,east"`` or ``"ne"`` as a list of sides."""
    text = str(value or "").replace(",", " ").casefold().split()
    out: list[str] = []
    for token in text:
        found = FACING_WORDS.get(token)
        letters = [found] if found else [FACING_WORDS.get(ch) for ch in token]
        if not all(letters):
            raise RuleError(f"{short(token)} is not a side: use n, e, s or w.")
        out.extend(s for s in letters if s and s not in out)
    return out


def phase_event(state: YasgState, text: str, **data: Any) -> Event:
    return PhasePayload(state.turn, state.phase).event(text, **data)
