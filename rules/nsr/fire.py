"""The fire phase: a unit's fire on the firing chart, volleys, officers' pistols, the Joker Fire chart."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.core import DiceSource, Event, RuleError, modifier_data, roll_dice, short
from rules.nsr import onmap, onmap_towns
from rules.nsr.deck import is_joker, opening, rank_key, suit, turn_card
from rules.nsr.hits import pick, strike
from rules.nsr.lookup import COLUMN_LABELS, Charts
from rules.nsr.options import FireOptions, PistolOptions, VolleyOptions
from rules.nsr.state import Figure, NsrState, Unit, building_named, unit_named
from rules.words import match_name, number, plural, possessive

SMALL_ARMS = ("musket", "rifle", "carbine", "pistol")
FIRING_ROLES = ("private", "nco", "trooper", "sapper", "key", "gunner")
#: What a gun fires, by the shot option's choice.
SHOTS = {"ball": "ball", "grape": "grapeshot"}


@dataclass
class Group:
    """One target of a unit's fire, checked before any die is rolled."""

    target: Unit
    range: float
    klass: str
    weapon: str
    firers: int
    figures: float  # what the firers count as (artillery: 12/9/6)
    at_wounded: bool
    notes: list[str]
    #: On the map, the target's figures the firers see (A-NSR-44); None: all of them.
    seen: set[str] | None = None


# --- who may fire ------------------------------------------------------------------------------


def firers(unit: Unit) -> list[Figure]:
    """Figures that fire with the unit: fit, not leaders (officers fire pistols apart), not busy (seed B.5)."""
    return [f for f in unit.standing() if f.role in FIRING_ROLES and not f.duty and not f.shaken and not f.routed]


def crew(unit: Unit) -> list[Figure]:
    return [f for f in unit.standing() if not f.duty and not f.shaken]


def gun_block(c: Charts, state: NsrState, unit: Unit) -> str | None:
    if unit.gun_destroyed:
        return f"{possessive(unit.name)} gun is destroyed."
    if unit.formation != "manhandled":
        return f"{possessive(unit.name)} gun is limbered: unlimber it (/nsr form) in a movement phase first."
    if unit.limbered_turn == state.turn:
        return f"{unit.name} limbered or unlimbered this turn, which takes the whole turn."
    hands = crew(unit)
    if len(hands) < c.t.artillery_min_crew or sum(f.role == "gunner" for f in hands) < c.t.artillery_min_gunners:
        return f"{unit.name} has too few crew to fire its gun ({c.t.artillery_min_crew} figures, one a gunner)."
    return None


def fire_block(c: Charts, state: NsrState, unit: Unit) -> str | None:
    """Why ``unit`` cannot fire at all this phase, or None (seed B.5, B.6)."""
    if unit.out:
        return f"{unit.name} is out of the fight."
    if unit.routed or unit.shaken:
        return f"{unit.name} is {'routed' if unit.routed else 'shaken'}: shaken and routed figures may not fire."
    if unit.charged:
        return f"{unit.name} charged this turn: figures that used a charge move may not fire."
    if unit.prone and unit.last_fired_turn == state.turn - 1:
        return f"{unit.name} is prone and fired last turn: prone figures fire only every other turn."
    if unit.weapon == "artillery":
        block = gun_block(c, state, unit)
        return None if block is None or pistol_officers(unit) else block
    if unit.building and state.field is None and building_named(state, unit.building).openings < 1:
        return f"{unit.name} is inside {unit.building}, which has no door, window or loophole to fire from."
    if not pistol_officers(unit):
        if unit.weapon == "none":
            return f"{unit.name} carries no firearms and has no officer with a pistol left to fire."
        if not firers(unit):
            return f"{unit.name} has no figure able to fire."
    return None


def in_reach(c: Charts, state: NsrState, unit: Unit) -> bool:
    """On the map, whether an enemy unit stands within the longest reach of ``unit``'s weapons
    (A-NSR-48: a unit with nothing in reach is not offered a fire card); always True at a table,
    and for a unit inside a building, whose doors and windows may reach further than its block."""
    return out_of_reach(c, state, unit) is None


def out_of_reach(c: Charts, state: NsrState, unit: Unit) -> str | None:
    """Why no enemy unit is in reach of ``unit``'s weapons on the map (its reach and the nearest
    enemy's range), or None when one is (or at a table, or inside a building: :func:`in_reach`)."""
    if state.field is None or unit.building:
        return None
    reaches = [c.t.officer_pistol.max_range] if pistol_officers(unit) else []
    weapon = "ball" if unit.weapon == "artillery" else unit.weapon
    if weapon in c.t.firing_chart and (unit.weapon != "artillery" or gun_block(c, state, unit) is None):
        reaches.append(c.t.firing_chart[weapon].max_range)
    if not reaches:
        return f"{unit.name} has no weapon that reaches"
    reach = max(reaches)
    enemies = [u for u in state.units if u.side != unit.side and not u.out and onmap.placement_of(state, u)]
    ranges = sorted((onmap.fire_range(state, unit, enemy), enemy.name) for enemy in enemies)
    if not ranges:
        return f"{unit.name} has no enemy unit on the map to fire at"
    nearest, name = ranges[0]
    if nearest <= reach:
        return None
    return f"{possessive(unit.name)} reach is {reach:g}″ and the nearest enemy, {name}, is {nearest:.1f}″ from its nearest figure"


def why_not_firing(c: Charts, state: NsrState, unit: Unit) -> str | None:
    """Briefly, why ``unit`` is offered no fire card this phase (A-NSR-48), or None when it is."""
    block = fire_block(c, state, unit)
    if block is not None:
        return block.split(":")[0].rstrip(".")
    return out_of_reach(c, state, unit)


def pistol_officers(unit: Unit) -> list[Figure]:
    if not unit.pistols:
        return []
    return [
        f
        for f in unit.standing()
        if f.role in ("officer", "commander") and f.name not in unit.pistols_fired and not f.shaken and not f.routed
    ]


# --- the Joker Fire chart ----------------------------------------------------------------------


def joker_fire(c: Charts, state: NsrState, unit: Unit, card: str, dice: DiceSource, events: list[Event]) -> None:
    """Roll the Joker Fire chart for the unit named on a joker (A-NSR-19)."""
    result = dice.roll(6, f"{unit.name}: Joker Fire chart")
    unit.joker = result
    text = f"Joker Fire chart for {unit.name}: {result} — {c.t.joker_fire[result]}."
    data: dict[str, Any] = {"unit": unit.name, "roll": result, "card": card}
    if result == 4:
        smoke = sum(roll_dice(dice, c.t.distances.smoke_d6, 6, f"{unit.name}: smoke distance"))
        unit.smoke = smoke
        text = f"{text[:-1]}: nothing beyond {smoke}″."
        data["smoke"] = smoke
    events.append(Event("joker", text, data))


# --- fire --------------------------------------------------------------------------------------


def _target(state: NsrState, unit: Unit, wanted: Any, doing: str) -> Unit:
    target = unit_named(state, wanted)
    if target.side == unit.side:
        raise RuleError(f"{target.name} is on {possessive(unit.name)} own side: {doing} an enemy unit.")
    if not target.standing() and not [f for f in target.figures if f.status == "wounded" and not f.in_rear]:
        raise RuleError(f"{target.name} has no figure left to hit.")
    return target


def _klass(value: str | None, target: Unit, notes: list[str], c: Charts) -> str:
    if target.weapon == "artillery":
        forced = c.t.vs_artillery_crew.target_class
        if value not in (None, forced):
            notes.append(f"an artillery crew is a class {forced} target")
        return forced
    if value is None:
        klass, why = table_class(c, target)
        notes.append(f"class {klass}: {why}")
        return klass
    return value


def table_class(c: Charts, target: Unit) -> tuple[str, str]:
    """A-NSR-47: the class a table reads from ``target`` itself (its building, prone, its formation)
    when the player gives none, and why."""
    rule = c.t.target_class
    if target.building:
        return rule.building, f"inside {target.building}"
    if target.prone:
        return rule.prone, "prone"
    formation = target.formation.replace("_", " ")
    if target.formation in c.t.open_order_formations:
        return rule.open_order, "open order" if formation == "open order" else f"{formation}, open order"
    return rule.close_order, f"{formation}, close order"


def shielded(klass: str, target: Unit) -> bool:
    """Special rule 10 (A-NSR-31): small arms need the target exposed when it is class IV or inside
    a building, whatever class the player gave."""
    return klass == "IV" or bool(target.building)


def hidden(
    state: NsrState,
    target: Unit,
    exposed: bool | None,
    option: str = "exposed",
    shooter: Unit | None = None,
    c: Charts | None = None,
) -> str | None:
    """Why small arms cannot fire at a class IV ``target``, or None (special rule 10, A-NSR-31).

    Only a target wholly under cover is hidden: the player says ``exposed`` when some of its figures
    shoot or look out through a door, a window or over a wall, or stand outside; a unit that has fired
    this turn was shooting, so it needs no saying.
    """
    if exposed or target.last_fired_turn == state.turn:
        return None
    found = onmap_towns.inside(c.t, state, target) if c is not None and shooter is not None else None
    if found is not None and shooter is not None:
        return onmap_towns.unexposed(target, shooter, found)  # A-NSR-46
    what = f"is inside {target.building}" if target.building else "is a class IV target"
    return (
        f"{target.name} {what} with no figure shooting or looking out through a door, a window "
        f"or over a wall: only artillery may fire at it (say {option} if some of it does)."
    )


def _range(value: float | None, unit: Unit, target: Unit, most: float, what: str) -> float:
    distance = number(value, f"Give the range from {unit.name} to {target.name} in inches.")
    if distance <= 0:
        raise RuleError(f"Give the range from {unit.name} to {target.name} as more than 0″.")
    if distance > most:
        raise RuleError(f"{target.name} is out of range: {what} reaches {most:g}″, not {distance:g}″.")
    if unit.smoke and distance > unit.smoke:
        raise RuleError(f"Smoke blocks {possessive(unit.name)} view beyond {unit.smoke}″ this turn (Joker Fire 4).")
    return distance


def _weapon(unit: Unit, shot: str | None) -> str:
    if unit.weapon != "artillery":
        if shot is not None:
            raise RuleError(f"{unit.name} carries {unit.weapon}s: only a gun fires ball or grapeshot.")
        return unit.weapon
    return SHOTS[shot or "ball"]


def plan_fire(c: Charts, state: NsrState, unit: Unit, params: FireOptions) -> list[Group]:
    """Every target group checked, with its firers, before a die is rolled (A-NSR-24)."""
    block = fire_block(c, state, unit)
    if block:
        raise RuleError(block)
    if unit.weapon == "none":
        raise RuleError(f"{unit.name} carries no firearms: its officers may fire pistols (/nsr pistol).")
    weapon = _weapon(unit, params.shot)
    asked = (
        ("", params.target, params.firers, params.class_, params.exposed, params.range),
        ("2", params.target2, params.firers2, params.class2, params.exposed2, params.range2),
    )
    raw = [
        (sfx, wanted, firers, klass, exposed, distance)
        for sfx, wanted, firers, klass, exposed, distance in asked
        if wanted
    ]
    if weapon in ("ball", "grapeshot") and len(raw) > 1:
        raise RuleError(f"{possessive(unit.name)} gun fires at one target, at short or long range, not both.")
    available = _available(c, state, unit, weapon)
    targets = [_target(state, unit, r[1], "fire at") for r in raw]
    sights = [_sight(c, state, unit, tg, weapon) for tg in targets] if state.field is not None else None
    caps = [s.firers for s in sights] if sights is not None else None
    counts = _split(unit, [r[2] for r in raw], available, caps)
    groups = []
    for i, ((sfx, _, _, given_class, exposed, given_range), count) in enumerate(zip(raw, counts, strict=True)):
        notes: list[str] = []
        target = targets[i]
        at_wounded = sfx == "" and bool(params.wounded)
        klass = "III" if at_wounded else _klass(given_class, target, notes, c)
        if at_wounded:
            notes.append("wounded figures are prone: class III")
            if not [f for f in target.figures if f.status == "wounded" and not f.in_rear]:
                raise RuleError(f"{target.name} has no wounded figure in sight.")
        if (
            not at_wounded
            and shielded(klass, target)
            and weapon in SMALL_ARMS
            and (why := hidden(state, target, exposed, f"exposed{sfx}", unit, c))
        ):
            raise RuleError(why)
        row = c.t.firing_chart[weapon]
        distance = _range(given_range, unit, target, row.max_range, f"{weapon}")
        if sights is not None and weapon in SMALL_ARMS and count > sights[i].firers:
            found = onmap_towns.inside(c.t, state, unit)
            raise RuleError(onmap_towns.too_many(unit, target, count, sights[i], found))
        figures: float = count
        if weapon in ("ball", "grapeshot"):
            figures = c.artillery_figures(count)
            notes.append(f"a crew of {count} counts as {figures} figures")
        seen = onmap_towns.seen_figures(target, sights[i]) if sights is not None else None
        groups.append(Group(target, distance, klass, weapon, count, figures, at_wounded, notes, seen))
    names = [g.target.name for g in groups]
    if len(set(names)) != len(names):
        raise RuleError(f"{names[0]} is named twice: fire at it in one group.")
    return groups


def _available(c: Charts, state: NsrState, unit: Unit, weapon: str) -> int:
    if weapon in ("ball", "grapeshot"):
        block = gun_block(c, state, unit)
        if block:
            raise RuleError(block)
        return len(crew(unit))
    count = len(firers(unit))
    if unit.building and state.field is None:  # on the map: the openings facing each target (A-NSR-44)
        count = min(count, building_named(state, unit.building).openings)
    if count < 1:
        raise RuleError(f"{unit.name} has no figure able to fire: only its officers' pistols (/nsr pistol).")
    return count


def _sight(c: Charts, state: NsrState, unit: Unit, target: Unit, weapon: str) -> onmap_towns.Sightlines:
    """A-NSR-44: who of ``unit`` can fire at ``target`` on the map, and what of it they see;
    refused when none can."""
    lines = onmap_towns.sightlines(c.t, state, unit, target, c.t.firing_chart[weapon].max_range)
    if lines.firers == 0 and lines.why_not != "out of range":  # out of range: the range check says it
        raise RuleError(onmap_towns.cannot_fire(unit, target, lines))
    return lines


def _split(unit: Unit, given: list[int | None], available: int, caps: list[int] | None = None) -> list[int]:
    """Firers per group: the first may be given; the second takes the rest (one figure fires once),
    on the map no more than can fire at it (``caps``)."""
    counts = list(given)
    if unit.weapon == "artillery":
        return [available]
    if len(counts) == 2 and counts[0] is None:
        raise RuleError("With two targets, give firers for the first; the rest fire at the second.")
    if counts[-1] is None:
        rest = available - sum(n for n in counts[:-1] if n is not None)
        counts[-1] = max(1, min(rest, caps[-1])) if caps is not None else rest
    result = [int(n) for n in counts if n is not None]
    for n in result:
        if n < 1:
            raise RuleError(f"Each target needs at least one firer; {unit.name} has {available} able to fire.")
    if sum(result) > available:
        raise RuleError(f"{unit.name} has only {plural(available, 'figure')} able to fire here, not {sum(result)}.")
    return result


def fire(c: Charts, state: NsrState, unit: Unit, params: FireOptions, dice: DiceSource, events: list[Event]) -> bool:
    """Dice order: one D6 per group, then one casualty card per hit, group by group."""
    if state.field is not None:
        params = onmap.measured(c.t, state, unit, params)
    groups = plan_fire(c, state, unit, params)
    results = [(g, dice.roll(6, f"{unit.name}: fire at {g.target.name} ({g.weapon}, class {g.klass})")) for g in groups]
    for group, die in results:
        hits = _hits(c, state, unit, group, die, events)
        _cards(c, state, unit, group, hits, dice, events)
    unit.last_fired_turn = state.turn
    return True


@dataclass(frozen=True)
class FireRoll:
    """What one group's die reads on the firing chart (pure: the engine's event and /odds share it)."""

    mods: tuple[tuple[str, int], ...]
    score: int
    klass: str
    figures: Fraction
    cell: Fraction
    chart_hits: int
    hits: int
    steps: str
    notes: tuple[str, ...]


def fire_roll(c: Charts, unit: Unit, g: Group, die: int) -> FireRoll:
    """The hits ``die`` gives ``g`` on the firing chart, with grapeshot and the Joker Fire chart."""
    row = c.t.firing_chart[g.weapon]
    mods: list[tuple[str, int]] = []
    if row.half_range_bonus and g.range <= row.max_range / 2:
        mods.append(("half range", c.t.half_range_bonus))
    if unit.joker == 6:
        mods.append(("Joker Fire 6", 1))
    score = die + sum(v for _, v in mods)
    klass = g.klass
    notes = list(g.notes)
    if g.weapon == "ball" and unit.british and klass == "II" and c.t.options.british_ball_class_ii_as_class_i:
        klass = "I"
        notes.append("British artillery reads class I")
    figures = Fraction(g.figures)
    if unit.joker == 1:
        figures = Fraction(math.floor(figures / 2))
        notes.append("low on ammo: half fire")
    elif unit.joker == 3:
        figures *= 2
        notes.append("two shots a figure")
    cell = c.fraction(g.weapon, klass, score)
    _, multiply = c.fire_row(g.weapon)
    chart_hits = c.round_hits(figures * cell)
    hits, steps = _hits_changed(chart_hits, multiply, unit.joker)
    return FireRoll(tuple(mods), score, klass, figures, cell, chart_hits, hits, steps, tuple(notes))


def _range_words(state: NsrState, g: Group) -> str:
    """The range as the fire card gives it; on the map, what it is measured between (A-NSR-36), as
    the map's list of nearest enemies measures block edge to block edge."""
    if state.field is None:
        return f"{g.range:g}″"
    return f"{g.range:g}″ (from its nearest figure to {possessive(g.target.name)} edge)"


def _hits(c: Charts, state: NsrState, unit: Unit, g: Group, die: int, events: list[Event]) -> int:
    r = fire_roll(c, unit, g, die)
    column = COLUMN_LABELS[c.column(r.score)]
    sums = "".join(f" +{v} ({k})" for k, v in r.mods)
    calc = f"{die}{sums} = {r.score}" if r.mods else f"{die}"
    extra = f" ({'; '.join(r.notes)})" if r.notes else ""
    shooters = f"{g.weapon} (crew of {g.firers})" if g.weapon in ("ball", "grapeshot") else plural(g.firers, g.weapon)
    text = (
        f"{unit.name} fires at {g.target.name}: {shooters}, class {r.klass}, {_range_words(state, g)}; "
        f"die {calc} reads column {column}: {r.cell.numerator}/{r.cell.denominator} → {plural(r.chart_hits, 'hit')}"
        f"{r.steps}{extra}."
    )
    events.append(
        Event(
            "fire",
            text,
            {
                "unit": unit.name,
                "target": g.target.name,
                "weapon": g.weapon,
                "firers": g.firers,
                "figures": float(r.figures),
                "class": r.klass,
                "range": g.range,
                "die": die,
                "modifiers": modifier_data(r.mods),
                "score": r.score,
                "column": column,
                "fraction": f"{r.cell.numerator}/{r.cell.denominator}",
                "chart_hits": r.chart_hits,
                "hits": r.hits,
                "notes": list(r.notes),
            },
        )
    )
    return r.hits


def _hits_changed(chart_hits: int, multiply: int, joker: int) -> tuple[int, str]:
    """The hits after grapeshot's multiple and Joker Fire 2 or 5 (A-NSR-19), and each step said
    with the number it gives (", ×2 for grapeshot → 4 hits, halved (bad aim) → 2 hits")."""
    hits, steps = chart_hits, ""
    if multiply > 1:
        hits *= multiply
        steps += f", ×{multiply} for grapeshot → {plural(hits, 'hit')}"
    if joker == 2:
        hits *= 2
        steps += f", doubled (good shots) → {plural(hits, 'hit')}"
    elif joker == 5:
        hits = math.ceil(hits / 2)
        steps += f", halved rounding up (bad aim) → {plural(hits, 'hit')}"
    return hits, steps


def _cards(c: Charts, state: NsrState, unit: Unit, g: Group, hits: int, dice: DiceSource, events: list[Event]) -> None:
    """One casualty card per hit (A-NSR-8: from the deck in play), applied as it is turned."""
    vs_gun = g.target.weapon == "artillery"
    already: set[str] = set()
    for n in range(1, hits + 1):
        reason = f"Casualty card {n} of {hits}: {unit.name} at {g.target.name}"
        card = _casualty_card(state, unit, g.target, reason, dice, events)
        if card is None:
            continue
        candidates = _candidates(g.target, g.at_wounded, g.seen)
        fresh = [f for f in candidates if f.name not in already]
        candidates = fresh or candidates
        reading = fire_card(c, vs_gun, card)
        if reading is None:
            _missed(
                events, card, g.target.name, unit.name, "no_hit", f"no casualty among {possessive(g.target.name)} crew"
            )
            continue
        who, outcome = reading
        figure = pick(candidates, who)
        if figure is None:
            _missed(
                events,
                card,
                g.target.name,
                unit.name,
                "lost",
                f"no figure of {g.target.name} may be hit by it (the hit is lost)",
            )
            continue
        already.add(figure.name)
        strike(state, g.target, figure, outcome, unit.name, events, cards=[card])


def _missed(events: list[Event], card: str, target: str, by: str, outcome: str, why: str) -> None:
    """A casualty card that hits no one (``outcome``: no_hit, lost), and why."""
    events.append(
        Event("hit", f"{opening(card)} → {why}.", {"unit": target, "card": card, "outcome": outcome, "by": by})
    )


def fire_card(c: Charts, vs_gun: bool, card: str) -> tuple[str, str] | None:
    """Who a fire's casualty card hits (leader, key, ordinary) and how (its suit); None when it
    hits no one of a gun's crew (special rule 7)."""
    who = c.t.casualty_card.ranks[rank_key(card)]
    if not vs_gun:
        return who, c.t.casualty_card.suits[suit(card)]
    crew_rule = c.t.vs_artillery_crew
    if rank_key(card) not in crew_rule.ranks or suit(card) not in crew_rule.suits:
        return None
    return who, crew_rule.suits[suit(card)]


def volley_card(c: Charts, klass: str, vs_gun: bool, card: str) -> str:
    """What a volley card does to a class ``klass`` target: no_hit, an outcome (killed, heavy…),
    or hit (a second card says how badly)."""
    if vs_gun:
        reading = fire_card(c, True, card)
        return "no_hit" if reading is None else reading[1]
    return str(c.t.volley_cards[klass][suit(card)])


def second_card(c: Charts, card: str) -> str:
    """The wound a volley's second card gives: by its rank, and a wound heavy on a red card and
    light on a black one (A-NSR-9)."""
    severity = str(c.t.volley_second_card[rank_key(card)])
    if severity == "wounded":
        return "light" if suit(card) in ("S", "C") else "heavy"
    return severity


def _candidates(target: Unit, at_wounded: bool, seen: set[str] | None = None) -> list[Figure]:
    """The figures a hit may fall on: on the map only those in the target area (A-NSR-44)."""
    found = [f for f in target.figures if f.status == "wounded" and not f.in_rear] if at_wounded else target.standing()
    return found if seen is None else [f for f in found if f.name in seen]


def _casualty_card(
    state: NsrState, unit: Unit, target: Unit, reason: str, dice: DiceSource, events: list[Event]
) -> str | None:
    """A card that is not a joker (A-NSR-7), or None when a joker destroyed the gun (artillery at artillery)."""
    while True:
        card = turn_card(state.deck, state.discards, dice, reason, events)
        if not is_joker(card):
            return card
        if unit.weapon == "artillery" and target.weapon == "artillery" and not target.gun_destroyed:
            target.gun_destroyed = True
            events.append(
                Event(
                    "gun",
                    f"{opening(card)}: {possessive(target.name)} gun is destroyed.",
                    {"unit": target.name, "card": card, "by": unit.name},
                )
            )
            return None
        events.append(
            Event(
                "hit",
                f"{opening(card)} is set aside; another card is turned.",
                {"unit": target.name, "card": card, "outcome": "joker", "by": unit.name},
            )
        )


# --- volley ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VolleyPlan:
    """A volley checked before any card is turned (A-NSR-3, A-NSR-23, A-NSR-45)."""

    target: Unit
    klass: str
    firers: int
    cards: int
    notes: tuple[str, ...]
    #: On the map, the target's figures in the area to the volley's front; None: all of them.
    seen: set[str] | None


def plan_volley(c: Charts, state: NsrState, unit: Unit, params: VolleyOptions) -> VolleyPlan:
    """Every check of a volley (``params`` already measured on a map), refused with a RuleError."""
    block = fire_block(c, state, unit)
    if block:
        raise RuleError(block)
    if unit.weapon not in SMALL_ARMS:
        raise RuleError(f"{unit.name} cannot volley: volleys are fired with small arms.")
    if state.field is not None and unit.building:  # A-NSR-45
        raise RuleError(
            f"{unit.name} is inside {unit.building}: its figures fire from its doors and windows, "
            "not in a volley (/nsr fire)."
        )
    if unit.formation not in c.t.volley_formations:
        raise RuleError(
            f"{unit.name} is in {unit.formation.replace('_', ' ')}: a volley is fired by a unit one or two ranks deep, in line."
        )
    notes: list[str] = []
    target = _target(state, unit, params.target, "volley at")
    klass = _klass(params.class_, target, notes, c)
    if shielded(klass, target) and (why := hidden(state, target, params.exposed, shooter=unit, c=c)):
        raise RuleError(why)
    half = c.t.firing_chart[unit.weapon].max_range / 2
    _range(params.range, unit, target, half, f"a volley of {unit.weapon}s (half range)")
    lines = None
    if state.field is not None:  # A-NSR-45: the area to its front, what of the target is seen in it
        lines = onmap_towns.sightlines(c.t, state, unit, target, half, onmap_towns.area_of_volley(state, unit, half))
        if lines.firers == 0:
            raise RuleError(onmap_towns.cannot_fire(unit, target, lines))
    available = _available(c, state, unit, unit.weapon)
    [count] = _split(unit, [params.firers], available, [lines.firers] if lines is not None else None)
    if lines is not None and count > lines.firers:
        raise RuleError(onmap_towns.too_many(unit, target, count, lines, None))
    cards = count
    if unit.joker == 1:
        cards = count // 2
        notes.append("low on ammo: half fire")
    elif unit.joker == 3:
        cards = count * 2
        notes.append("two shots a figure")
    elif unit.joker in (2, 5, 6):
        notes.append(f"Joker Fire {unit.joker} does not change a volley")
    return VolleyPlan(target, klass, count, cards, tuple(notes), onmap_towns.seen_figures(target, lines))


def volley(
    c: Charts, state: NsrState, unit: Unit, params: VolleyOptions, dice: DiceSource, events: list[Event]
) -> bool:
    """One card per volleying figure (A-NSR-3), no die and no half-range +1 (A-NSR-23)."""
    if state.field is not None:
        params = onmap.measured(c.t, state, unit, params)
    plan = plan_volley(c, state, unit, params)
    target, klass, count, cards = plan.target, plan.klass, plan.firers, plan.cards
    extra = f" ({'; '.join(plan.notes)})" if plan.notes else ""
    events.append(
        Event(
            "volley",
            f"{unit.name} volleys at {target.name} (class {klass}): "
            f"{plural(count, 'figure')}, {plural(cards, 'card')}{extra}.",
            {
                "unit": unit.name,
                "target": target.name,
                "class": klass,
                "firers": count,
                "cards": cards,
                "notes": list(plan.notes),
            },
        )
    )
    _volley_cards(c, state, unit, target, klass, cards, dice, events, plan.seen)
    unit.last_fired_turn = state.turn
    return True


def _volley_cards(
    c: Charts,
    state: NsrState,
    unit: Unit,
    target: Unit,
    klass: str,
    cards: int,
    dice: DiceSource,
    events: list[Event],
    seen: set[str] | None = None,
) -> None:
    hit_already: set[str] = set()
    vs_gun = target.weapon == "artillery"
    for n in range(1, cards + 1):
        candidates = [f for f in _candidates(target, False, seen) if f.name not in hit_already]
        if not candidates:
            events.append(
                Event(
                    "volley",
                    f"Every figure of {target.name} in the area is hit: "
                    f"the other {plural(cards - n + 1, 'card')} are wasted.",
                    {"unit": target.name, "wasted": cards - n + 1},
                )
            )
            return
        reason = f"Volley card {n} of {cards}: {unit.name} at {target.name}"
        card = _casualty_card(state, unit, target, reason, dice, events)
        if card is None:
            continue
        outcome = _volley_outcome(c, state, unit, target, klass, card, vs_gun, reason, dice, events)
        if outcome is None:
            _missed(events, card, target.name, unit.name, "no_hit", f"no hit on {target.name}")
            continue
        who = c.t.casualty_card.ranks[rank_key(card)]
        figure = pick(candidates, who)
        if figure is None:
            _missed(
                events, card, target.name, unit.name, "lost", f"no figure of {target.name} may be hit by it (wasted)"
            )
            continue
        hit_already.add(figure.name)
        strike(state, target, figure, outcome[0], unit.name, events, cards=outcome[1])


def _volley_outcome(
    c: Charts,
    state: NsrState,
    unit: Unit,
    target: Unit,
    klass: str,
    card: str,
    vs_gun: bool,
    reason: str,
    dice: DiceSource,
    events: list[Event],
) -> tuple[str, list[str]] | None:
    """(outcome, the cards that made it) for one volley card, turning the second card of a class
    III/IV hit at once."""
    result = volley_card(c, klass, vs_gun, card)
    if result == "no_hit":
        return None
    if result != "hit":
        return result, [card]
    second = _casualty_card(state, unit, target, f"{reason}, second card", dice, events)
    if second is None:
        return None
    return second_card(c, second), [card, second]


# --- officers' pistols ---------------------------------------------------------------------------


def pistol(
    c: Charts, state: NsrState, unit: Unit, params: PistolOptions, dice: DiceSource, events: list[Event]
) -> bool:
    """An officer's aimed shot at one figure (A-NSR-22): 1D6, 5 wounds, 6 kills. The unit fires on after."""
    if state.field is not None:
        params = onmap.measured(c.t, state, unit, params)
    if unit.out or unit.routed or unit.shaken:
        raise RuleError(f"{unit.name} is in no state to fire.")
    if unit.charged:
        raise RuleError(f"{unit.name} charged this turn: figures that used a charge move may not fire.")
    officers = pistol_officers(unit)
    if not officers:
        raise RuleError(f"{unit.name} has no officer with a pistol left to fire this phase.")
    officer = officers[0]
    target = _target(state, unit, params.target, "aim at")
    if target.building and (why := hidden(state, target, params.exposed, shooter=unit, c=c)):
        raise RuleError(why)
    rule = c.t.officer_pistol
    _range(params.range, unit, target, rule.max_range, "an officer's pistol")
    victim = _victim(target, params.aim, params.figure)
    die = dice.roll(6, f"{unit.name}: {possessive(officer.name)} pistol at {possessive(target.name)} {victim.name}")
    unit.pistols_fired.append(officer.name)
    outcome = "killed" if die >= rule.kill_on else rule.wound if die >= rule.wound_on else None
    result = "miss" if outcome is None else outcome
    events.append(
        Event(
            "pistol",
            f"{unit.name}: {officer.name} fires a pistol at {possessive(target.name)} {victim.name}: "
            f"{die}, {'a miss' if outcome is None else 'hit'}.",
            {
                "unit": unit.name,
                "officer": officer.name,
                "target": target.name,
                "figure": victim.name,
                "die": die,
                "outcome": result,
            },
        )
    )
    if outcome is not None:
        strike(state, target, victim, outcome, unit.name, events)
    return False


def _victim(target: Unit, aim: str | None, named: str | None) -> Figure:
    """The figure an officer aims at (A-NSR-22: any figure): one named, else the first of a kind."""
    if named is not None:
        if aim is not None:
            raise RuleError("Aim at a kind of figure or name one figure, not both.")
        return _named_figure(target, named)
    kind = aim or "leader"
    victim = _aimed(target, kind)
    if victim is None:
        raise RuleError(f"{target.name} has no {kind} figure to aim at.")
    return victim


def _named_figure(target: Unit, named: Any) -> Figure:
    """A figure of ``target`` in sight to aim at: fit, or wounded and not yet taken to the rear."""
    in_sight = [f for f in target.figures if f.standing or (f.status == "wounded" and not f.in_rear)]
    found = match_name([f.name for f in in_sight], named)
    if found is None:
        names = ", ".join(f.name for f in in_sight[:8]) + (" …" if len(in_sight) > 8 else "")
        raise RuleError(f"{target.name} has no figure called {short(str(named))} to aim at: {names}.")
    return next(f for f in in_sight if f.name == found)


def _aimed(target: Unit, aim: str) -> Figure | None:
    if aim == "wounded":
        return next((f for f in target.figures if f.status == "wounded" and not f.in_rear), None)
    standing = target.standing()
    if aim == "leader":
        leaders = sorted((f for f in standing if f.leader), key=lambda f: -f.rank)
        return leaders[0] if leaders else None
    if aim == "key":
        return next((f for f in standing if f.key and not f.leader), None)
    return next((f for f in standing if not f.key and not f.leader), None)
