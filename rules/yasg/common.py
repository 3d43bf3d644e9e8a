"""Small helpers the setup and the turn share: finding figures and sides, reading options."""

from __future__ import annotations

from typing import Any

from rules.core import Event, RuleError, find_figure, short
from rules.yasg.board import SIDE_WORDS
from rules.yasg.state import YasgFigure, YasgState

FACING_WORDS = {**{k: k for k in SIDE_WORDS}, **{v: k for k, v in SIDE_WORDS.items()}}


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
    if not isinstance(wanted, str):
        return None
    return next((s for s in state.sides if s.casefold() == wanted.strip().casefold()), None)


def facing(value: Any) -> str | None:
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
    payload = {"turn": state.turn, "phase": state.phase, **data}
    return Event("phase", text, payload)


def plural(count: int, word: str, many: str = "") -> str:
    return f"{count} {word}" if count == 1 else f"{count} {many or word + 's'}"


def joined(items: list[str], last: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]
