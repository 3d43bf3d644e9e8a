"""Shooting (7): skill and modifiers, misfires and weather, automatic hits, reloading, horse or rider,
cover, multi-wound weapons (volley gun, artillery) and the optional dodge of a shot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rules.core import RuleError, modifier_data
from rules.sharpe import guns_onmap, onmap
from rules.sharpe.bound import actor, loading_what, require_standing, require_unbroken
from rules.sharpe.common import PART_WORDS, Ctx, mods_text
from rules.sharpe.decisions import SHOT_DODGE, ask
from rules.sharpe.options import ShootOptions
from rules.sharpe.profile import (
    Roster,
    ability_check,
    current,
    left_handed,
    usable,
    wound_counts,
)
from rules.sharpe.schema import LOCATIONS, Band, SharpeTables, Weapon
from rules.sharpe.state import Character, Firearm, Gun
from rules.sharpe.wounds import (
    apply_wound,
    horse_wound,
    location_roll,
    severity_for,
    severity_text,
    wound_numbers,
)
from rules.specs import read_params
from rules.words import blank, inches, names_list

#: What a table's players report that the map measures instead (A-SHARPE-35).
MEASURED_ON_MAP = {"range": "the range", "cover": "cover", "flank": "the side he is shot from"}


@dataclass
class Shot:
    shooter: Character
    weapon_key: str
    weapon: Weapon
    targets: list[Character]
    range: float
    band: Band
    base: int
    skill: int
    mods: list[tuple[str, int]]
    gun: Gun | None = None
    firearm: Firearm | None = None
    at: str = ""
    cover: str = "none"
    hides: list[str] = field(default_factory=list)
    from_side: str = "front"
    perch_ft: float = 0.0
    tap_load: bool = False
    #: On the bot's map: what was measured, in the card's words.
    measured: str = ""


def band_for(bands: list[Band], distance: float) -> Band | None:
    for band in bands:
        if band.upto is None or distance < band.upto or (band.inclusive and distance == band.upto):
            return band
    return None


# --- declaring a shot (every check before any die) ----------------------------------------------------


def prepare(ctx: Ctx, p: ShootOptions) -> Shot:
    shooter = actor(ctx, p.shooter)
    require_standing(ctx, shooter, "shoot")
    _may_shoot(ctx, shooter)
    gun = firearm = None
    if p.gun is not None:
        gun, key = _gun(ctx, shooter, p.gun)
    else:
        firearm, key = _firearm(ctx, shooter, p.weapon)
    weapon = ctx.t.weapons[key]
    target = ctx.enemy(shooter, p.target, "shoot at")
    targets = [target]
    for name in names_list(p.also):
        other = ctx.enemy(shooter, name, "shoot at")
        if other in targets:
            raise RuleError(f"{other.name} is named twice in the target group.")
        targets.append(other)
    if len(targets) > 1 and not weapon.wounds:
        raise RuleError(f"A {weapon.label} hits one man: only the volley gun and artillery fire at a group.")
    on_map = None
    if ctx.state.field is not None:
        for option, what in MEASURED_ON_MAP.items():
            if getattr(p, option) is not None:
                raise RuleError(f"On the map the bot measures {what}: leave {option}: out.")
        on_map = onmap.measure_shot(ctx.t, ctx.state, shooter, targets, gun=guns_onmap.serving(ctx, shooter, gun))
        distance = on_map.range
    else:
        if p.range is None:
            raise RuleError(f"Give the range to {target.name} in inches.")
        distance = p.range
    if distance <= 0:
        raise RuleError(f"Give the range to {target.name} as more than 0″.")
    band = band_for(weapon.ranges, distance)
    if band is None:
        raise RuleError(
            f"{target.name} is out of range: a {weapon.label} reaches {inches(weapon.ranges[-1].upto or 0)}, not {inches(distance)}."
        )
    shot = Shot(shooter, key, weapon, targets, distance, band, 0, 0, [], gun=gun, firearm=firearm)
    if on_map is not None:
        shot.measured = on_map.text
    _options(ctx, shot, p, on_map)
    shot.base, shot.mods = _skill(ctx, shot, p)
    shot.skill = shot.base + sum(v for _, v in shot.mods)
    return shot


def _may_shoot(ctx: Ctx, ch: Character) -> None:
    require_unbroken(ctx, ch, "shoot")
    if ch.shot_bound == ctx.bound:
        raise RuleError(f"{ch.name} has fired already this bound.")
    if ch.attacked_bound == ctx.bound:
        raise RuleError(f"{ch.name} attacked in melee this bound: nobody shoots and attacks in the same bound.")
    if ch.parried_bound == ctx.bound:
        raise RuleError(f"{ch.name} parried or riposted an attack this bound, so he cannot shoot.")
    if ch.loading_bound == ctx.bound:
        raise RuleError(f"{ch.name} is loading {loading_what(ctx, ch)} this bound.")
    if ch.mounted and ch.horse is not None and ch.horse.lost_control:
        raise RuleError(f"{ch.name}'s horse is out of control: he cannot shoot.")


def _gun(ctx: Ctx, shooter: Character, wanted: Any) -> tuple[Gun, str]:
    if not ctx.t.options.artillery:
        raise RuleError("Artillery is not used in this campaign.")
    gun = ctx.gun(wanted)
    if gun.side != shooter.side:
        raise RuleError(f"{gun.name} belongs to the {gun.side}.")
    if not gun.loaded:
        raise RuleError(f"{gun.name} is not loaded: it needs {'re-priming' if gun.reprime_left else 'loading'} first.")
    return gun, gun.weapon


def _firearm(ctx: Ctx, shooter: Character, wanted: Any) -> tuple[Firearm, str]:
    if blank(wanted):
        loaded = [f for f in shooter.firearms if f.loaded and usable(ctx.t, shooter, f.weapon, melee=False) is None]
        if not shooter.firearms:
            raise RuleError(f"{shooter.name} carries no firearm.")
        if not loaded:
            raise RuleError(f"{shooter.name} has no loaded firearm he can use: {_state_of(ctx, shooter)}.")
        firearm = loaded[0]
    else:
        key = Roster(ctx.t).weapon(shooter.name, str(wanted))
        carried = next((f for f in shooter.firearms if f.weapon == key), None)
        if carried is None:
            raise RuleError(f"{shooter.name} carries no {ctx.t.weapons[key].label} to fire.")
        firearm = carried
    label = ctx.t.weapons[firearm.weapon].label
    why = usable(ctx.t, shooter, firearm.weapon, melee=False)
    if why:
        raise RuleError(f"{why}.")
    if firearm.picked_up_bound == ctx.bound:
        raise RuleError(f"{shooter.name} picked up that {label} this bound: it fires next bound at the earliest.")
    if not firearm.loaded:
        raise RuleError(f"{shooter.name}'s {label} is not loaded: {_reload_text(firearm)}.")
    return firearm, firearm.weapon


def _reload_text(firearm: Firearm) -> str:
    left = firearm.reload_left
    doing = "re-priming" if firearm.repriming else "reloading"
    return f"{doing}, {left} more clean bound{'s' if left != 1 else ''}"


def _state_of(ctx: Ctx, ch: Character) -> str:
    return ", ".join(
        f"{ctx.t.weapons[f.weapon].label} {'loaded' if f.loaded else _reload_text(f)}" for f in ch.firearms
    )


def _options(ctx: Ctx, shot: Shot, p: ShootOptions, on_map: onmap.Measured | None = None) -> None:
    target = shot.targets[0]
    shot.cover = (p.cover or "none") if on_map is None else on_map.cover
    hidden = ["_".join(h.split()).casefold() for h in names_list(p.hidden)]
    for part in hidden:
        if part not in LOCATIONS and part != "arms":
            raise RuleError(f"{part} is not a body part: use {', '.join(LOCATIONS)}.")
    if hidden and shot.cover != "hard":
        raise RuleError("Name hidden body parts only for a target in hard cover.")
    expanded = [x for h in hidden for x in (("left_arm", "right_arm") if h == "arms" else (h,))]
    shot.hides = (expanded or list(ctx.t.shooting.hard_cover_hides)) if shot.cover == "hard" else []
    shot.from_side = (p.flank or "front") if on_map is None else on_map.from_side
    shot.perch_ft = float(p.perch_ft or 0)
    aimed = bool(p.aimed)
    shot.tap_load = bool(p.tap_load)
    if shot.tap_load and shot.weapon.tap_reload_bounds is None:
        raise RuleError(f"Only a rifle is tap loaded; a {shot.weapon.label} loads as it always does.")
    if p.at is not None:
        shot.at = p.at
        if not (target.mounted and ctx.t.options.horsemen):
            raise RuleError(f"{target.name} is not on a horse.")
        if not (aimed or shot.weapon.choose_horse_or_rider):
            raise RuleError("Only an aimed shot, or a rifleman, chooses between horse and rider.")
    elif target.mounted and (aimed or shot.weapon.choose_horse_or_rider):
        shot.at = "rider"


def _skill(ctx: Ctx, shot: Shot, p: ShootOptions) -> tuple[int, list[tuple[str, int]]]:
    """The firing skill, capped before modifiers (musket 9), and every modifier of table S."""
    s = ctx.t.shooting
    shooter, target = shot.shooter, shot.targets[0]
    mods: list[tuple[str, int]] = []
    if shot.gun is not None:
        base = min(shot.gun.F, ctx.t.gun_firing_max)
    else:
        assert shot.firearm is not None
        cap = shot.weapon.tap_skill_cap if shot.firearm.tap else shot.weapon.skill_cap
        base = shooter.F if cap is None else min(shooter.F, cap)
        light, serious = wound_counts(shooter)
        mods += [("light wounds", light * s.each_light_wound), ("serious wounds", serious * s.each_serious_wound)]
        if shooter.moved_bound == ctx.bound and shooter.moved > 0:
            mods.append(("firer moving", s.firer_moving))
        if left_handed(ctx.t, shooter, shot.weapon_key, bool(p.left_hand)):
            mods.append(("left hand", s.wrong_hand))
    if any(t.moved_bound == ctx.bound and t.moved > 0 for t in shot.targets[:1]):
        mods.append(("target moving", s.target_moving))
    if ctx.state.night:
        mods.append(("night", s.night))
    if not shot.band.auto_hit and shot.band.mod:
        label = "short range" if shot.band.mod > 0 else f"range {inches(shot.range)}"
        mods.append((label, shot.band.mod))
    if target.mounted and ctx.t.options.horsemen:
        mods.append(("mounted target", s.mounted_target))
    if p.resting:
        mods.append(("resting the gun", s.resting))
    if p.aimed:
        _may_aim(ctx, shooter)
        mods.append(("aimed", s.aimed))
    return base, [m for m in mods if m[1]]


def _may_aim(ctx: Ctx, shooter: Character) -> None:
    """An aimed shot needs a whole move standing still first (A-SHARPE-4); in the first bound there
    was none before it, unless the house rule counts the time before the battle (A-SHARPE-51)."""
    if ctx.bound == 1 and not ctx.t.shooting.aim_in_first_bound:
        raise RuleError(
            f"Nobody aims in the first bound: an aimed shot needs a whole move standing still first, "
            f"so {shooter.name} may aim from bound 2 if he does not move now."
        )
    if shooter.moved_bound >= ctx.bound - 1 and shooter.moved_bound > 0:
        when = "this bound" if shooter.moved_bound == ctx.bound else "last bound"
        raise RuleError(f"{shooter.name} moved {when}: an aimed shot needs a whole move standing still first.")


# --- firing ------------------------------------------------------------------------------------------


def shoot(ctx: Ctx, p: ShootOptions) -> None:
    shot = prepare(ctx, p)
    target = shot.targets[0]
    if ctx.t.options.dodge_shots and len(shot.targets) == 1 and _can_dodge(ctx, target):
        prompt = f"{shot.shooter.name} fires at {target.name} (skill {shot.skill}): does {target.name} dodge?"
        ask(ctx, target, SHOT_DODGE, ["dodge", "take"], prompt, shot=_kept(p, shot.shooter.name))
        ctx.say(
            "aim",
            f"{shot.shooter.name} aims at {target.name}; the {target.side} may dodge.",
            shooter=shot.shooter.name,
            target=target.name,
        )
        return
    fire(ctx, shot)
    _priority_hint(ctx, shot)


def _kept(p: ShootOptions, shooter: str) -> dict[str, Any]:
    """The shot's options as the state keeps them while the target's dodge waits (read again,
    with :func:`read_params`, when it is answered)."""
    given = {name: value for name, value in asdict(p).items() if value is not None}
    return {**given, "shooter": shooter}


def _can_dodge(ctx: Ctx, ch: Character) -> bool:
    return not (ch.down or ch.unconscious or ch.knocked_out or ch.mounted) and current(ctx.t, ch, "D") > 0


def resume_dodge(ctx: Ctx, kept: Mapping[str, Any], choice: str) -> None:
    """The optional dodge of a shot (options.dodge_shots): a dexterity check; success, the shot goes
    wide. ``kept`` is the shot's options as the waiting choice kept them."""
    shot = prepare(ctx, read_params(ShootOptions, kept, "shoot"))
    target = shot.targets[0]
    if choice == "dodge":
        target.dodged_bound = target.busy_bound = ctx.bound
        check = ability_check(ctx, target, "D", f"dodge {shot.shooter.name}'s shot", cost=ctx.t.melee.costs.dodge)
        ctx.say("check", f"{check.text}.", figure=target.name, **check.data())
        if check.ok:
            _discharged(ctx, shot, misfire=False)
            ctx.say(
                "shot",
                f"{shot.shooter.name} fires at {target.name}, who dodges: the shot goes wide.",
                shooter=shot.shooter.name,
                target=target.name,
                hit=False,
                dodged=True,
            )
            return
    fire(ctx, shot)


def _priority_hint(ctx: Ctx, shot: Shot) -> None:
    """7, target priorities: "rifles should always try to knock out officers first" (a hint only)."""
    if not shot.weapon.choose_horse_or_rider or ctx.t.kinds[shot.targets[0].kind].role == "officer":
        return
    officers = [
        c.name
        for c in ctx.state.characters
        if c.side != shot.shooter.side and not c.out and not c.unconscious and ctx.t.kinds[c.kind].role == "officer"
    ]
    if officers:
        ctx.say(
            "hint",
            f"Target priority: riflemen try to knock out officers first ({', '.join(officers)} still up).",
            shooter=shot.shooter.name,
            officers=officers,
        )


def fire(ctx: Ctx, shot: Shot) -> None:
    """Dice order: [weather D6] → 2D6 → [wound count] → per wound [horse/rider D6] → location → [soft cover] → 2D6."""
    shooter, target = shot.shooter, shot.targets[0]
    shooter.shot_bound = shooter.busy_bound = ctx.bound
    if shot.gun is None:
        shooter.in_hand = shot.weapon_key
    else:
        guns_onmap.lay(ctx.state, shot.gun, target)
    group = f" and {', '.join(t.name for t in shot.targets[1:])}" if len(shot.targets) > 1 else ""
    what = shot.gun.name if shot.gun else f"his {shot.weapon.label}"
    head = f"{shooter.name} fires {what} at {target.name}{group} ({shot.measured or inches(shot.range)})"
    parts: list[str] = []
    data: dict[str, Any] = {
        "shooter": shooter.name,
        "targets": [t.name for t in shot.targets],
        "weapon": shot.weapon_key,
        "range": shot.range,
        "skill": shot.skill,
        "base": shot.base,
        "modifiers": modifier_data(shot.mods),
        "misfire": False,
    }
    if shot.measured:
        data["measured"] = shot.measured
    misfires = ctx.t.shooting.weather_misfire[ctx.state.weather]
    if misfires:
        face = ctx.d6(f"{shooter.name}: {ctx.state.weather}, {MISFIRE_ON}{'/'.join(map(str, misfires))}")
        data["weather_die"] = face
        if face in misfires:
            _discharged(ctx, shot, misfire=True)
            data["misfire"] = True
            ctx.say(
                "shot",
                f"{head}: {ctx.state.weather} D6 {face}: misfire — re-prime for {ctx.t.shooting.reprime_bounds} bound.",
                **data,
                hit=False,
            )
            return
        parts.append(f"{ctx.state.weather} D6 {face}: it fires")
    skill_text = f"skill {shot.base}{mods_text(shot.mods)} = {shot.skill}" if shot.mods else f"skill {shot.skill}"
    if shot.band.auto_hit:
        hit = True
        parts.append(f"at {inches(shot.range)} an automatic hit")
    else:
        a, b = ctx.two_d6(f"{shooter.name}: shot at {target.name}, 2D6 vs skill {shot.skill}")
        total = a + b
        data.update(to_hit=[a, b], roll=total, needed=shot.skill)
        if total in ctx.t.shooting.misfire_2d6:
            _discharged(ctx, shot, misfire=True)
            parts.append(f"2D6 = {total}: misfire — re-prime for {ctx.t.shooting.reprime_bounds} bound")
            data["misfire"] = True
            ctx.say("shot", f"{head}: {'; '.join(parts)}.", **data, hit=False)
            return
        hit = total <= shot.skill
        parts.append(f"{skill_text} · 2D6 = {total} {'≤' if hit else '>'} {shot.skill}: {'hit' if hit else 'miss'}")
    _discharged(ctx, shot, misfire=False)
    if not hit:
        ctx.say("shot", f"{head}: {' · '.join(parts)}.", **data, hit=False)
        return
    count = _wound_count(ctx, shot, parts)
    if count == 1 and len(shot.targets) == 1:
        _one_wound(ctx, shot, target, head, parts, data)
        return
    ctx.say("shot", f"{head}: {' · '.join(parts)}.", **data, hit=True, wounds=count)
    cursor = 0
    for i in range(count):
        victim = None
        for _ in range(len(shot.targets)):
            candidate = shot.targets[cursor % len(shot.targets)]
            cursor += 1
            if not candidate.out:
                victim = candidate
                break
        if victim is None:
            left = count - i
            ctx.say(
                "shot",
                f"The other {left} wounds strike men already down."
                if left > 1
                else "The other wound strikes a man already down.",
                shooter=shooter.name,
            )
            return
        _one_wound(
            ctx,
            shot,
            victim,
            f"Wound {i + 1} of {count} on {victim.name}",
            [],
            {"shooter": shooter.name, "wound": i + 1},
        )


def _wound_count(ctx: Ctx, shot: Shot, parts: list[str]) -> int:
    """Volley gun and artillery: 1D6+1 close, D3+1 further, D3 beyond (A-SHARPE-20)."""
    if not shot.weapon.wounds:
        return 1
    for count in shot.weapon.wounds:
        if count.upto is None or shot.range < count.upto or (count.inclusive and shot.range == count.upto):
            face = ctx.dice.roll(count.die, f"{shot.shooter.name}: number of wounds, D{count.die} + {count.plus}")
            total = max(1, face + count.plus)
            parts.append(f"{total} wound{'s' if total > 1 else ''} (D{count.die} {face} + {count.plus})")
            return total
    return 1


#: How the reason of the weather's die names the faces that misfire ("misfire on 1/2").
MISFIRE_ON = "misfire on "


def horse_or_rider(t: SharpeTables) -> str:
    """How the reason of the horseman's die ends, its faces as the tables give them:
    "horse (1-3) or rider (4-6)"."""
    return " or ".join(f"{part} ({_faces(faces)})" for part, faces in t.shooting.horseman_hit.items())


def soft_cover(t: SharpeTables) -> str:
    """How the reason of soft cover's die ends: "soft cover, D6 4-6 hits"."""
    return f"soft cover, D6 {_faces(t.shooting.soft_cover_hit)} hits"


def _faces(faces: Sequence[int]) -> str:
    ordered = sorted(faces)
    if not ordered:
        return "none"
    if ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) > 1:
        return f"{ordered[0]}-{ordered[-1]}"
    return "/".join(map(str, ordered))


def odds_faces(t: SharpeTables, reason: str) -> tuple[tuple[int, ...], ...] | None:
    """The faces of a shot's D6 that the rules read alike (see ``Engine.odds_faces``): the weather
    die misfires or fires, the horseman's die hits the horse or the rider, soft cover stops the
    ball or lets it through. Each die's reason names its faces from the tables, so a house rule
    that moves them moves the reason and the grouping together."""
    if MISFIRE_ON in reason:
        misfire = {int(face) for face in reason.rsplit(MISFIRE_ON, 1)[1].split("/")}
        return _split(misfire)
    if reason.endswith(horse_or_rider(t)):
        return tuple(tuple(faces) for faces in t.shooting.horseman_hit.values())
    if reason.endswith(soft_cover(t)):
        return _split(set(t.shooting.soft_cover_hit))
    return None


def _split(faces: set[int]) -> tuple[tuple[int, ...], ...]:
    groups = tuple(sorted(faces)), tuple(f for f in range(1, 7) if f not in faces)
    return tuple(g for g in groups if g)


def _one_wound(ctx: Ctx, shot: Shot, victim: Character, head: str, parts: list[str], data: dict[str, Any]) -> None:
    shooter = shot.shooter
    reason = f"{shooter.name} → {victim.name}"
    at = ""
    if victim.mounted and ctx.t.options.horsemen:
        at = shot.at
        if not at:
            face = ctx.d6(f"{reason}: {horse_or_rider(ctx.t)}")
            at = next(k for k, faces in ctx.t.shooting.horseman_hit.items() if face in faces)
            parts.append(f"D6 {face}: the {at}")
        else:
            parts.append(f"at the {at}")
    location, where, located = location_roll(ctx, victim, reason, from_side=shot.from_side)
    parts.append(where)
    covered = _cover(ctx, shot, location, reason, parts)
    if covered:
        ctx.say(
            "shot",
            f"{head}: {' · '.join(parts)}.",
            **data,
            hit=False,
            location=location,
            cover=shot.cover,
            location_rolls=located,
        )
        return
    a, b = ctx.two_d6(f"{reason}: wound 2D6")
    mods = []
    if victim.down and at != "horse":
        mods.append(("on the floor", ctx.t.wound_modifiers.on_the_floor))
    score = a + b + sum(v for _, v in mods)
    severity = severity_for(ctx, location, score)
    parts.append(severity_text(score, severity, "2D6", mods, f"{a}+{b}"))
    ctx.say(
        "shot",
        f"{head}: {' · '.join(parts)}.",
        **data,
        hit=True,
        target=victim.name,
        at=at or "man",
        location=location,
        severity=severity,
        **wound_numbers(located, [a, b], mods, score),
    )
    if at == "horse":
        horse_wound(ctx, victim, location, severity, shooter.name)
    else:
        apply_wound(ctx, victim, location, severity, by=shooter.name, source="shot", perch_ft=shot.perch_ft)


def _cover(ctx: Ctx, shot: Shot, location: str, reason: str, parts: list[str]) -> bool:
    """12, cover: hard cover hiding that part is a miss; soft cover, D6 1-3 a miss."""
    if shot.cover == "hard" and location in shot.hides:
        parts.append(f"the {PART_WORDS[location]} is behind hard cover: miss")
        return True
    if shot.cover == "soft":
        face = ctx.d6(f"{reason}: {soft_cover(ctx.t)}")
        if face not in ctx.t.shooting.soft_cover_hit:
            parts.append(f"soft cover D6 {face}: miss")
            return True
        parts.append(f"soft cover D6 {face}: through")
    return False


def _discharged(ctx: Ctx, shot: Shot, *, misfire: bool) -> None:
    """A-SHARPE-14: k clean bounds after the firing bound; a misfire needs re-priming."""
    reprime = ctx.t.shooting.reprime_bounds
    if shot.gun is not None:
        shot.gun.loaded, shot.gun.fired_bound = False, ctx.bound
        if misfire:
            shot.gun.reprime_left = reprime
        else:
            shot.gun.man_bounds = 0
        return
    firearm = shot.firearm
    assert firearm is not None
    firearm.loaded, firearm.fired_bound = False, ctx.bound
    if misfire:
        firearm.reload_left, firearm.repriming = reprime, True
        return
    firearm.repriming = False
    if shot.tap_load and shot.weapon.tap_reload_bounds is not None:
        firearm.reload_left, firearm.tap = shot.weapon.tap_reload_bounds, True
    else:
        firearm.reload_left, firearm.tap = shot.weapon.reload_bounds, False
    if firearm.reload_left == 0:
        firearm.loaded = True
