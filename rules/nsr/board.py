"""What /game status shows: each unit's strength, formation, state and activations; the deck."""

from __future__ import annotations

from rules.core import Board, FigureLine
from rules.nsr.close_combat import pending_charges
from rules.nsr.deck import label
from rules.nsr.hits import summary
from rules.nsr.morale import in_critical
from rules.nsr.sequence import describe_wait
from rules.nsr.state import NsrState, Unit

PHASES = {
    "deployment": "deployment",
    "movement": "movement phase",
    "fire": "fire phase",
    "close_combat": "close combat phase",
    "over": "over",
}


def unit_status(state: NsrState, unit: Unit) -> str:
    formation = "disordered" if unit.shaken else unit.formation.replace("_", " ")
    parts = [unit.troop, formation, summary(unit)]
    if unit.gun_destroyed:
        parts.append("gun destroyed")
    marks = [m for m in ("routed", "shaken", "pinned", "prone") if getattr(unit, m)]
    if not unit.routed and unit.standing() and in_critical(unit):
        marks.append("critical morale")
    if unit.immobile:
        marks.append("immobile")
    parts += marks
    if unit.building:
        parts.append(f"in {unit.building}")
    done = []
    if unit.moved or unit.charged:
        done.append("charged" if unit.charged else "held" if unit.held else "moved")
    if unit.fired:
        done.append("fired" if unit.last_fired_turn == state.turn else "did not fire")
    if done and not state.over:
        parts.append(" and ".join(done) + " this turn")
    if state.active == unit.name:
        parts.append("ACTING NOW")
    return " · ".join(parts)


def board(state: NsrState, turn: str | None) -> Board:
    if state.over:
        headline = f"Battle over: {state.winner} won" if state.winner else "Battle over: a draw"
    else:
        card = f" · {label(state.card)}" if state.card else ""
        headline = f"Turn {state.turn} · {PHASES[state.phase]}{card}"
    facts = [
        ("Turn", str(state.turn)),
        ("Phase", PHASES[state.phase]),
        ("Active", turn or "—"),
        ("Card", label(state.card) if state.card else "—"),
        ("Deck", f"{len(state.deck)} cards left"),
        ("Waiting for", describe_wait(state)),
        ("Charges", "; ".join(f"{ch.charger} → {ch.target}" for ch in pending_charges(state)) or "none"),
    ]
    chiefs = []
    for side, chief in state.commanders.items():
        lost = f" (lost turn {chief.lost_turn})" if chief.lost_turn else ""
        chiefs.append(f"{side}: {chief.unit}{lost}")
    facts.append(("Commanders-in-Chief", "; ".join(chiefs) or "none"))
    for b in state.buildings:
        inside = [u.name for u in state.units if u.building == b.name and u.standing()]
        works = [f"{task} {done}" for task, done in b.progress.items() if done != "0"]
        breached = [f"{n} {part}" for part, n in b.breaches.items() if n]
        detail = [f"{b.capacity} places", f"{b.windows + b.doors} openings", f"{b.loopholes} loopholes"]
        if breached:
            detail.append("breached: " + ", ".join(breached))
        if works:
            detail.append("work: " + ", ".join(works))
        if inside:
            detail.append("held by " + ", ".join(inside))
        facts.append((b.name, " · ".join(detail)))
    if state.over:
        facts.append(("Winner", state.winner or "draw"))
    lines = tuple(FigureLine(u.name, u.side, unit_status(state, u), out=u.out) for u in state.units)
    return Board(headline=headline, facts=tuple(facts), figures=lines, finished=state.over)
