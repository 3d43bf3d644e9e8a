"""Who a hit falls on, and what it does to the figure and its unit."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rules.core import CasualtyPayload, Event
from rules.nsr.deck import label
from rules.nsr.state import Figure, NsrState, Status, Unit

OUTCOME_WORDS = {
    "killed": "killed",
    "heavy": "heavily wounded",
    "light": "lightly wounded",
    "wounded": "wounded",
    "captured": "captured",
}


def pick(candidates: Iterable[Figure], who: str) -> Figure | None:
    """The figure a card's rank hits among ``candidates`` (A-NSR-21).

    leader: the highest-ranking leader, else a key figure, else anyone; key: a key figure, else any
    non-leader; ordinary: an ordinary figure, else a key figure, never a leader.
    """
    pool = list(candidates)
    leaders = sorted((f for f in pool if f.leader), key=lambda f: -f.rank)
    keys = [f for f in pool if f.key and not f.leader]
    ordinary = [f for f in pool if not f.key and not f.leader]
    if who == "leader":
        order = leaders + keys + ordinary
    elif who == "key":
        order = keys + ordinary
    else:
        order = ordinary + keys
    return order[0] if order else None


def status_after(outcome: str) -> Status:
    """A figure's status once a hit of ``outcome`` falls on it: killed, captured, else wounded
    (light, heavy); /odds counts the hit under the same word."""
    if outcome == "killed":
        return "killed"
    return "captured" if outcome == "captured" else "wounded"


def odds_label(lost: Mapping[str, Mapping[str, int]], marks: Sequence[str] = (), moves: Sequence[str] = ()) -> str:
    """An order's result as /odds tallies it: the figures each unit lost by status (in the order
    the units were first hit), then what became of units, then how far one may move."""
    parts = [f"{unit}: " + ", ".join(f"{n} {what}" for what, n in sorted(per.items())) for unit, per in lost.items()]
    return "; ".join([*parts, *marks, *moves]) or "no effect"


def lands_on(leaders: int, others: int, who: str) -> str | None:
    """What :func:`pick` hits for ``who`` among candidates counting ``leaders`` leaders and
    ``others`` other figures: a leader, another figure, or None (the hit is lost). Which key or
    ordinary figure it is does not change what later hits may do: /odds counts figures this way."""
    if who == "leader" and leaders:
        return "leader"
    return "other" if others else None


def strike(
    state: NsrState,
    unit: Unit,
    figure: Figure,
    outcome: str,
    by: str,
    events: list[Event],
    cards: Sequence[str] = (),
    quiet: bool = False,
) -> None:
    """Apply ``outcome`` (killed, heavy, light, captured) to ``figure`` of ``unit``; ``cards`` are
    the casualty cards that did it, as the deck writes them ("3C"; a volley's hit and its second card)."""
    was_shaken = figure.shaken
    status = status_after(outcome)
    if status == "wounded":
        if figure.status == "wounded":
            outcome = "heavy"  # wounded again: heavily
        figure.wound = outcome
    elif status == "killed":
        figure.wound = ""
    figure.status = status
    for mark in ("pinned", "shaken", "prone"):
        setattr(figure, mark, False)
    figure.duty = ""
    unit.hit_this_turn = True
    if was_shaken:
        unit.critical = True  # shaken figures hit: critical morale (seed 4.B)
    if not quiet:
        prefix = " then ".join(label(card) for card in cards) + " → " if cards else ""
        text = f"{prefix}{unit.name}: {figure.name} {OUTCOME_WORDS[outcome]}."
        data = {"unit": unit.name, "side": unit.side, "figure": figure.name, "outcome": outcome, "by": by}
        if cards:
            data["card"] = cards[0]
        if len(cards) > 1:
            data["second_card"] = cards[1]
        events.append(Event("hit", text, data))
    commander = state.commanders.get(unit.side)
    is_chief = commander is not None and (commander.unit, commander.figure) == (unit.name, figure.name)
    if commander is not None and is_chief and outcome in ("killed", "captured") and not commander.lost_turn:
        commander.lost_turn = state.turn
        events.append(
            Event(
                "commander",
                f"{unit.side}'s Commander-in-Chief is {OUTCOME_WORDS[outcome]}: "
                f"the side checks major morale from now on.",
                {"side": unit.side, "turn": state.turn},
            )
        )
    if not any(f.status in ("fit", "ran") for f in unit.figures):
        events.append(CasualtyPayload(unit.name, unit.side, by).event(f"{unit.name} has no figure left standing."))


def summary(unit: Unit) -> str:
    """``14 fit, 2 wounded, 1 killed`` for a unit."""
    counts: dict[str, int] = {}
    for f in unit.figures:
        counts[f.status] = counts.get(f.status, 0) + 1
    parts = [f"{counts.get('fit', 0)}/{unit.original} fit"]
    for status in ("wounded", "killed", "captured", "ran"):
        if counts.get(status):
            parts.append(f"{counts[status]} {status}")
    return ", ".join(parts)
