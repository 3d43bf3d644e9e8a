"""What /game status shows: the batting order, and per character wounds, points left, weapons, state."""

from __future__ import annotations

from rules.core import Board, FigureLine
from rules.sharpe.common import PART_WORDS
from rules.sharpe.decisions import values_of
from rules.sharpe.onmap import deploying, unplaced
from rules.sharpe.profile import current, points
from rules.sharpe.schema import SharpeTables
from rules.sharpe.state import Character, Gun, SharpeState
from rules.words import joined

ORDER_MAX = 900


def board(t: SharpeTables, state: SharpeState) -> Board:
    if state.over:
        headline = f"Game over: {'the ' + state.winner + ' won' if state.winner else 'a draw'} ({state.ended_how})"
    elif state.pending is not None:
        headline = f"Bound {state.bound} · waiting for the {state.pending.decider}: {state.pending.prompt}"
    elif deploying(state):
        headline = f"Deployment: still to place {joined(unplaced(state))}"
    else:
        active = next((c for c in state.characters if c.name == state.active), None)
        headline = f"Bound {state.bound} · {active.name} ({active.side}) to act" if active else f"Bound {state.bound}"
    active = next((c for c in state.characters if c.name == state.active), None)
    facts: list[tuple[str, str]] = [("Bound", str(state.bound))]
    if deploying(state):
        facts.append(("Order", "rolled once every man is on the map"))
    else:
        facts += [
            ("Active", active.side if active and not state.over else "—"),
            ("Character", active.name if active and not state.over else "—"),
            ("Order", _order(state)),
        ]
    facts.append(("Weather", f"{state.weather}, {'night' if state.night else 'day'}"))
    if state.guns:
        facts.append(("Guns", "; ".join(_gun(t, g) for g in state.guns)))
    if state.broken:
        facts.append(("Broken", ", ".join(state.broken)))
    if state.dropped:
        facts.append(("On the ground", ", ".join(f"{t.weapons[d.weapon].label} ({d.by}'s)" for d in state.dropped)))
    if state.objects:
        facts.append(("Tasks", ", ".join(f"{k} (strength {v})" for k, v in state.objects.items())))
    if state.pending is not None:
        facts.append(("Waiting for", f"{state.pending.decider}: {', '.join(values_of(state.pending))}"))
    if state.over:
        facts.append(("Winner", state.winner or "nobody (a draw)"))
    lines = [FigureLine(c.name, c.side, status(t, state, c), out=c.out) for c in _in_order(state)]
    lines += [FigureLine(g.name, g.side, _gun(t, g)) for g in state.guns]
    return Board(headline=headline, facts=tuple(facts), figures=tuple(lines), finished=state.over)


def _in_order(state: SharpeState) -> list[Character]:
    by_name = {c.name: c for c in state.characters}
    return [by_name[n] for n in state.order if n in by_name] + [
        c for c in state.characters if c.name not in state.order
    ]


def _order(state: SharpeState) -> str:
    marks = []
    for i, name in enumerate(state.order, 1):
        ch = next(c for c in state.characters if c.name == name)
        mark = " ✗" if ch.out else (" ▶" if name == state.active else (" ✓" if name in state.acted else ""))
        marks.append(f"{i}. {name}{mark}")
    text = ", ".join(marks)
    return text if len(text) <= ORDER_MAX else text[: ORDER_MAX - 1] + "…"


def _gun(t: SharpeTables, gun: Gun) -> str:
    weapon = t.weapons[gun.weapon]
    if gun.loaded:
        state = "loaded"
    elif gun.reprime_left:
        state = "re-priming"
    else:
        state = f"loading, {gun.man_bounds}/{weapon.reload_man_bounds} man-bounds"
    return f"{gun.name} ({gun.side}, F {gun.F}): {state}"


def status(t: SharpeTables, state: SharpeState, ch: Character) -> str:
    if ch.out:
        return f"{t.kinds[ch.kind].label} · out of action"
    bound = state.bound
    abilities = []
    for a in ("I", "D", "S", "C"):
        now = current(t, ch, a)
        full = now + ch.spent.get(a, 0)
        abilities.append(f"{a}{now}" if now == full else f"{a}{now}/{full}")
    parts = [t.kinds[ch.kind].label, " ".join(abilities) + f" F{ch.F}"]
    if ch.wounds:
        marks = ", ".join(f"{PART_WORDS[w.location]} {'L' if w.severity == 'light' else 'S'}" for w in ch.wounds)
        total = points(t, ch)
        parts.append(f"wounds: {marks} ({total} pt{'s' if total != 1 else ''})")
    for f in ch.firearms:
        label = t.weapons[f.weapon].label
        if f.loaded:
            parts.append(f"{label} loaded" + (" (tapped)" if f.tap else ""))
        else:
            parts.append(f"{label} {'re-priming' if f.repriming else 'reloading'} ({f.reload_left})")
    others = [w for w in ch.weapons if not t.weapons[w].firearm]
    if others:
        parts.append("+".join(t.weapons[w].label for w in others))
    flags = []
    if ch.unconscious:
        flags.append("unconscious")
    if ch.knocked_out:
        flags.append(f"knocked out ({ch.knocked_out})")
    if ch.down == "fallen":
        flags.append("fallen")
    elif ch.down == "knocked_down" and not ch.unconscious and not ch.knocked_out:
        flags.append("knocked down")
    if ch.suppressed_bound == bound:
        flags.append("suppressed")
    if ch.wounded_bound == bound:
        flags.append("wounded this bound")
    if ch.crawl_only:
        flags.append("crawls")
    if ch.no_move_bound == bound:
        flags.append("cannot move this bound")
    if ch.passout_rolls and not ch.unconscious:
        flags.append("may pass out")
    if ch.mounted and ch.horse is not None:
        horse = f"mounted, {ch.horse.pace}"
        if ch.horse.lost_control:
            horse += ", out of control"
        if ch.horse.wounds:
            horse += f", horse wounded ({len(ch.horse.wounds)})"
        flags.append(horse)
    locked = [c for c in state.contacts if ch.name in (c.a, c.b)]
    for c in locked:
        other = c.b if c.a == ch.name else c.a
        flags.append(f"{'locked with' if c.locked else 'in contact with'} {other}")
    if ch.name in state.acted and not state.over:
        flags.append("has acted")
    return " · ".join(parts + flags)
