"""Target priorities (7) shown from the map (A-SHARPE-50): for one shooter, the enemies he can see
and reach in the order the rules advise, each line saying why it stands there: for a rifle the
officers first ("rifles should always try to knock out officers first"), then those further off that
are easier than the nearest, or horsemen no harder to hit ("Always shoot the enemy closest to you
unless there is an easier target further away … a cavalry man at 23 paces" is more dangerous than
"an infantry man 20 paces away"), then the nearest, then the rest by distance; range band and
cover measured as a shot measures them (A-SHARPE-35). A question, not an action (``targets``, one of
the engine's ``questions``): it changes nothing and rolls no die, and its one event is the advice,
which the application shows to the asker alone."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.core import RuleError, find_figure
from rules.sharpe import onmap
from rules.sharpe.common import Ctx
from rules.sharpe.gunbase import gun_named
from rules.sharpe.guns_onmap import touching
from rules.sharpe.onmap import Measured
from rules.sharpe.options import TargetsOptions
from rules.sharpe.profile import Roster
from rules.sharpe.schema import Band, SharpeTables, Weapon
from rules.sharpe.shooting import band_for
from rules.sharpe.state import Character, SharpeState
from rules.words import blank, measured, signed

#: How easy each cover makes a target (the rules: "a target in the open is easier than a target in cover").
OPENNESS = {"none": 2, "soft": 1, "hard": 0}
#: An automatic hit beats any modifier to the firing skill.
AUTOMATIC = 100
#: How a reason that is the shooter's own begins (Sight.why_not: "he is too deep in the wood to see out").
SEES_OUT = ("he is ", "it is ")


@dataclass(frozen=True)
class Candidate:
    """One enemy the shooter sees and reaches, as a shot would measure him; ``officer`` only when
    the shooter's rifle puts officers first."""

    name: str
    distance: float
    band: str
    ease: int
    cover: str
    feature: str | None
    notes: tuple[str, ...] = ()
    mounted: bool = False
    officer: bool = False

    def line(self, rank: int) -> str:
        cover = "in the open" if self.cover == "none" else f"{self.cover} cover: {self.feature}"
        notes = f" — {'; '.join(self.notes)}" if self.notes else ""
        return f"{rank}. {self.name}: {measured(self.distance)}, {self.band}, {cover}{notes}"


@dataclass(frozen=True)
class TargetAdvice:
    """Whom ``shooter`` should shoot first with ``weapon``: ``candidates`` in the rules' order, and
    the enemies he cannot see (name, why) or cannot reach, apart."""

    shooter: str
    weapon: str
    candidates: tuple[Candidate, ...]
    unseen: tuple[tuple[str, str], ...] = ()
    beyond: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        found = [c.line(i) for i, c in enumerate(self.candidates, 1)]
        if not found:
            found.append(f"No enemy is in sight and within reach of the {self.weapon}.")
        if self.unseen:
            found.append(f"Not seen: {self.unseen_text()}.")
        if self.beyond:
            found.append(f"Out of range: {', '.join(self.beyond)}.")
        return found

    def unseen_text(self) -> str:
        """One reason for all when the shooter himself sees nobody ("he is too deep in the wood to see
        out"), else each enemy with his."""
        reasons = {why for _, why in self.unseen}
        if len(reasons) == 1 and len(self.unseen) > 1 and reasons.pop().startswith(SEES_OUT):
            _, why = self.unseen[0]
            return f"{self.shooter} {why.split(' ', 1)[1]}"
        return "; ".join(f"{name} ({why})" for name, why in self.unseen)


def ask(ctx: Ctx, p: TargetsOptions) -> None:
    """``targets``: the advice for ``p.shooter`` as one event: its lines, under a heading, with the
    rules' priority as a footer; the event's data names the targets in order."""
    advice = advise(ctx.t, ctx.state, p.shooter, p.weapon)
    priority = ctx.t.hints.target_priority
    ctx.say(
        "targets",
        "\n".join(advice.lines()),
        heading=f"Targets for {advice.shooter} ({advice.weapon})",
        footer=priority or None,
        shooter=advice.shooter,
        weapon=advice.weapon,
        targets=[c.name for c in advice.candidates],
        unseen=[name for name, _ in advice.unseen],
        beyond=list(advice.beyond),
    )


def band_words(band: Band) -> str:
    if band.auto_hit:
        return "automatic hit"
    if band.mod > 0:
        return f"short range ({signed(band.mod)})"
    return "normal range" if band.mod == 0 else f"long range ({signed(band.mod)})"


def ease_of(band: Band) -> int:
    return AUTOMATIC if band.auto_hit else band.mod


def no_harder(a: Candidate, b: Candidate) -> bool:
    """``a`` is as easy a shot as ``b`` or easier: his band and his cover are worse in neither."""
    return a.ease >= b.ease and OPENNESS[a.cover] >= OPENNESS[b.cover]


def easier(a: Candidate, b: Candidate) -> list[str]:
    """Why ``a`` is an easier shot than ``b`` (empty: it is not): a better range band or more open,
    and worse in neither."""
    better_band, better_cover = a.ease > b.ease, OPENNESS[a.cover] > OPENNESS[b.cover]
    if not no_harder(a, b) or not (better_band or better_cover):
        return []
    why = [a.band] if better_band else []
    if better_cover:
        why.append("in the open" if a.cover == "none" else f"only {a.cover} cover")
    return why


def _origin(
    t: SharpeTables, state: SharpeState, wanted: str, weapon_wanted: str | None
) -> tuple[str, str, float, Weapon]:
    """Who shoots (a man or a gun), his side, his base's radius and the weapon he would fire; a
    crewman without a firearm who stands at his side's gun asks for the gun."""
    names = [c.name for c in state.characters] + [g.name for g in state.guns]
    name = find_figure(names, wanted)
    gun = gun_named(state, name)
    if gun is not None:
        return gun.name, gun.side, t.map.gun_base_radius, t.weapons[gun.weapon]
    ch = next(c for c in state.characters if c.name == name)
    if ch.out:
        raise RuleError(f"{ch.name} is out of action.")
    if not ch.firearms and blank(weapon_wanted):
        served = next((g for g in state.guns if g.side == ch.side and touching(t, state, ch, g)), None)
        if served is None:
            raise RuleError(f"{ch.name} carries no firearm and stands at no gun: he has nobody to shoot at.")
        return served.name, served.side, t.map.gun_base_radius, t.weapons[served.weapon]
    return ch.name, ch.side, onmap.radius(t, ch), t.weapons[_firearm(t, ch, weapon_wanted)]


def _firearm(t: SharpeTables, ch: Character, wanted: str | None) -> str:
    if not blank(wanted):
        key = Roster(t).weapon(ch.name, str(wanted))
        if not any(f.weapon == key for f in ch.firearms):
            raise RuleError(f"{ch.name} carries no {t.weapons[key].label} to fire.")
        return key
    shown = onmap.shown_weapon(t, ch)
    if shown is None:
        raise RuleError(f"{ch.name} carries no firearm: he has nobody to shoot at.")
    return shown


def _candidate(t: SharpeTables, on: Measured, target: Character, band: Band, weapon: Weapon) -> Candidate:
    officer = weapon.choose_horse_or_rider and t.kinds[target.kind].role == "officer"
    return Candidate(
        target.name,
        on.range,
        band_words(band),
        ease_of(band),
        on.cover,
        on.feature,
        mounted=target.mounted,
        officer=officer,
    )


def advise(t: SharpeTables, state: SharpeState, shooter: str, weapon: str | None = None) -> TargetAdvice:
    """The rules' target priority for ``shooter`` (a man, or a gun) from the map."""
    field = state.field
    if field is None:
        raise RuleError("Target priority is measured on the bot's map, and this battle is played on a table.")
    if blank(shooter):
        raise RuleError("Name the shooter whose targets you want.")
    who, side, size, arm = _origin(t, state, str(shooter), weapon)
    if who not in field.positions:
        raise RuleError(f"{who} is not on the map yet.")
    pronoun = "it" if gun_named(state, who) else "he"
    found: list[Candidate] = []
    unseen: list[tuple[str, str]] = []
    beyond: list[str] = []
    for enemy in state.characters:
        if enemy.side == side or enemy.out or enemy.name not in field.positions:
            continue
        try:
            on = onmap.measure_from(t, state, who, size, [enemy], pronoun=pronoun)
        except RuleError as refused:
            unseen.append(
                (enemy.name, refused.message.removeprefix(f"{who} cannot see {enemy.name}: ").removesuffix("."))
            )
            continue
        band = band_for(arm.ranges, on.range)
        if band is None:
            beyond.append(f"{enemy.name} ({measured(on.range)})")
            continue
        found.append(_candidate(t, on, enemy, band, arm))
    return TargetAdvice(who, arm.label, tuple(ranked(found)), tuple(unseen), tuple(beyond))


#: Where a target stands in the rules' order, before its distance.
OFFICER, BEFORE_THE_NEAREST, NEAREST, REST = range(4)


def ranked(found: list[Candidate]) -> list[Candidate]:
    """The rules' order, each candidate noted with the reason for his place, so no line says first
    what the list puts later."""
    if not found:
        return []
    nearest = min(found, key=lambda c: (c.distance, c.name))
    placed = [_placed(c, nearest) for c in found]
    placed.sort(key=lambda p: (p[0], p[1].distance, p[1].name))
    return [c for _, c in placed]


def _placed(c: Candidate, nearest: Candidate) -> tuple[int, Candidate]:
    notes: list[str] = []
    rank = REST
    why = easier(c, nearest) if c is not nearest else []
    if c is nearest:
        rank = NEAREST
        notes.append("the nearest")
    elif why:
        rank = BEFORE_THE_NEAREST
        notes.append(f"easier than {nearest.name}, the nearest: {', '.join(why)}")
    if c.mounted:
        if c is nearest or why or nearest.mounted:
            notes.append("a horseman: more dangerous than a man on foot")
        elif no_harder(c, nearest):
            rank = BEFORE_THE_NEAREST
            notes.append(
                f"a horseman, as easy a shot as {nearest.name}, the nearest: more dangerous than a man on foot"
            )
        else:
            notes.append(f"a horseman, but a harder shot than {nearest.name}, the nearest")
    if c.officer:
        rank = OFFICER
        notes.append("an officer: riflemen knock out officers first")
    return rank, replace(c, notes=tuple(notes))
