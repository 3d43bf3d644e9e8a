"""Wounding (12) and wound effects (13): location, severity, what a wound does, falls, horses, morale."""

from __future__ import annotations

from typing import Any

from rules.core import CasualtyPayload, WoundPayload, modifier_data
from rules.sharpe import mounts, onmap
from rules.sharpe.common import PART_WORDS, SEVERITY_WORDS, Ctx, mods_text
from rules.sharpe.order import move_down
from rules.sharpe.profile import ability_check, arm_lost, points
from rules.sharpe.state import Character, Dropped, Wound
from rules.words import inches

STANDING_WORDS = {"fallen": "on the ground", "knocked_down": "knocked down"}


def severity_for(ctx: Ctx, location: str, score: int) -> str:
    """Table W; below 2 no effect, above 12 kill (clamped, 6); A-SHARPE-1 for Head 5."""
    row = "arms" if location.endswith("_arm") else location
    if score < 2:
        return "none"
    if score > 12:
        return "kill"
    if row == "head" and score == 5:
        return ctx.t.options.head5
    return ctx.t.wound_table[row][score - 2]


def swap_arm(location: str, from_side: str) -> str:
    """An arm on the far side cannot be hit: "simply change left for right or v.v." (12)."""
    if from_side == "right" and location == "left_arm":
        return "right_arm"
    if from_side == "left" and location == "right_arm":
        return "left_arm"
    return location


def location_roll(
    ctx: Ctx,
    victim: Character,
    reason: str,
    *,
    from_side: str = "front",
    capture: bool = False,
    blow: str = "",
    auto_head: bool = False,
) -> tuple[str, str, list[int]]:
    """The body part hit, how it was found ("location 5: chest") and the dice rolled for it."""
    if auto_head or blow == "headbutt":
        why = "sneaked up on" if auto_head else "head butt"
        return "head", f"location: head ({why})", []
    if blow == "kick":
        face = ctx.d6(f"{reason}: location (kick)")
        part = ctx.t.kick_location_d6[face - 1]
        return part, f"kick location {face}: {PART_WORDS[part]}", [face]
    face = ctx.d6(f"{reason}: location")
    rolls = [face]
    while blow == "punch" and face in ctx.t.punch_reroll:
        face = ctx.d6(f"{reason}: location (a punch lands above the legs)")
        rolls.append(face)
    shown = " → ".join(str(r) for r in rolls)
    if capture:
        face = min(6, face + ctx.t.capture_location_bonus)
        shown += f" +{ctx.t.capture_location_bonus} (capture)"
    part = swap_arm(ctx.t.location_d6[face - 1], from_side)
    return part, f"location {shown}: {PART_WORDS[part]}", rolls


def severity_text(score: int, severity: str, label: str, mods: list[tuple[str, int]], base: str) -> str:
    return f"wound {label} {base}{mods_text(mods)} = {score}: {SEVERITY_WORDS[severity]}"


def wound_numbers(located: list[int], dice: list[int], mods: list[tuple[str, int]], score: int) -> dict[str, Any]:
    """The numbers a wound roll's text shows, as event data: the location dice, the wound dice, the
    modifiers and their sum, and the score read on the wound table."""
    return {
        "location_rolls": located,
        "wound_rolls": dice,
        "wound_modifiers": modifier_data(mods),
        "wound_modifier": sum(value for _, value in mods),
        "score": score,
    }


# --- applying a wound ------------------------------------------------------------------------------


def apply_wound(
    ctx: Ctx,
    victim: Character,
    location: str,
    severity: str,
    *,
    by: str,
    source: str,
    capture: bool = False,
    perch_ft: float = 0.0,
    no_room: bool = False,
) -> None:
    """Everything a wound result does, immediately (13), with one "wound" event listing the effects.
    ``no_room``: at a table, the players said he has no room to recoil (A-SHARPE-28)."""
    if severity == "none":
        _no_effect(ctx, victim, by=by, source=source, no_room=no_room)
        return
    if capture and severity in ("serious", "kill"):
        _knockout(ctx, victim, by=by)
        return
    holding = "left_arm" if arm_lost(victim, "right_arm") else "right_arm"
    if severity == "kill":
        _out(ctx, victim, f"a kill result to the {PART_WORDS[location]}", by)
        return
    victim.wounds.append(Wound(location, severity, ctx.bound, by))
    total = points(ctx.t, victim)
    if total >= ctx.t.wound_points.out_at:
        _out(ctx, victim, f"a {SEVERITY_WORDS[severity]} to the {PART_WORDS[location]} ({total} wound points)", by)
        return
    victim.wounded_bound = ctx.bound
    victim.busy_bound = ctx.bound
    effects = ["no further action or movement this bound"]
    effects += _location_effects(ctx, victim, location, severity, holding)
    moved = move_down(ctx, victim, severity)
    if moved:
        effects.append(moved)
    recoil, pushed = _recoil(ctx, victim, by, no_room)
    effects.append(recoil)
    word = SEVERITY_WORDS[severity]
    ctx.tell(
        WoundPayload(victim.name, victim.side, by, PART_WORDS[location], tuple(effects), word),
        f"{victim.name}: {word} to the {PART_WORDS[location]} — {'; '.join(effects)}.",
        location=location,
        severity=severity,
        points=total,
    )
    if victim.mounted:
        _rider_wounded(ctx, victim, severity, shot=source == "shot", by=by)
    if perch_ft > 0 and (pushed is None or pushed.fell_from is None):
        _perch(ctx, victim, perch_ft, by)
    fall_off(ctx, victim, pushed)
    morale_triggers(ctx)


def _recoil(ctx: Ctx, victim: Character, by: str, no_room: bool) -> tuple[str, onmap.Pushed | None]:
    """ "A wounded person will always recoil backwards 1 inch": on the map he is moved, straight away
    from the man who hit him, as far as there is room (A-SHARPE-37); at a table he recoils unless the
    players said he has no room (A-SHARPE-28)."""
    pushed = onmap.away(ctx.t, ctx.state, victim, by, onmap.WOUND_RECOIL)
    if pushed is not None:
        return onmap.recoil_text(pushed, onmap.WOUND_RECOIL), pushed
    return ("has no room to recoil" if no_room else f"recoils {inches(onmap.WOUND_RECOIL)}"), None


def fall_off(ctx: Ctx, ch: Character, pushed: onmap.Pushed | None) -> None:
    """A-SHARPE-46: a man recoiling or pushed over the edge of a wall's top falls to its foot ("a
    character falling over does so in the direction of its movement ... on a town wall"), and a fall
    of over 6 feet may wound him (A-SHARPE-3)."""
    if pushed is None or pushed.fell_from is None or ch.out:
        return
    wall, height = pushed.fell_from
    ch.down = ch.down or "fallen"
    ctx.say("fall", f"{ch.name} goes over the edge of {wall} and falls {height:g} ft.", figure=ch.name, ok=False)
    if height > ctx.t.effects.fall_over_ft:
        fall_wound(ctx, ch, f"falls {height:g} ft from {wall}", ch.name)


def _no_effect(ctx: Ctx, victim: Character, *, by: str, source: str, no_room: bool) -> None:
    effects = []
    if source == "shot":
        victim.suppressed_bound = ctx.bound
        victim.busy_bound = ctx.bound
        effects.append("suppressed: no movement or attacks this bound")
    recoil, pushed = _recoil(ctx, victim, by, no_room)
    effects.append(recoil)
    ctx.tell(
        WoundPayload(victim.name, victim.side, by, effects=tuple(effects), outcome=SEVERITY_WORDS["none"]),
        f"{victim.name}: no effect — {'; '.join(effects)}.",
        severity="none",
    )
    fall_off(ctx, victim, pushed)
    if source == "shot" and victim.mounted and victim.horse is not None and not victim.horse.lost_control:
        check = ability_check(ctx, victim, "D", "control his horse after the shot")
        if not check.ok:
            victim.horse.lost_control = "shaken"
        outcome = (
            "keeps control" if check.ok else "loses control: the horse runs on at the same speed; he may only parry"
        )
        ctx.say("check", f"{check.text}: {outcome}.", figure=victim.name, **check.data())


def _knockout(ctx: Ctx, victim: Character, *, by: str) -> None:
    """A-SHARPE-12: a capture's serious or kill result knocks out (as a serious head wound, no death)."""
    bounds = ctx.dice.roll(
        ctx.t.effects.knockout_die, f"{victim.name}: knocked out, bounds (D{ctx.t.effects.knockout_die})"
    )
    victim.knocked_out, victim.knocked_out_bound = bounds, ctx.bound
    victim.down = "knocked_down"
    victim.wounded_bound = victim.busy_bound = ctx.bound
    effects = [f"knocked out for {bounds} bound{'s' if bounds > 1 else ''}", "may be carried off as a prisoner"]
    ctx.tell(
        WoundPayload(victim.name, victim.side, by, effects=tuple(effects), outcome=SEVERITY_WORDS["knockout"]),
        f"{victim.name}: knocked out — {'; '.join(effects)}.",
        severity="knockout",
    )
    if victim.mounted:
        unhorse(ctx, victim, "falls from his horse", further=False, by=by)
    morale_triggers(ctx)


def _location_effects(ctx: Ctx, victim: Character, location: str, severity: str, holding: str) -> list[str]:
    same = [w for w in victim.wounds if w.location == location]
    serious = severity == "serious" or (severity == "light" and len(same) >= 2)  # A-SHARPE-10
    effects: list[str] = []
    if serious and severity == "light":
        effects.append(f"his light wounds to the {PART_WORDS[location]} add up to a serious one")
    if location == "legs":
        if severity == "light":
            victim.no_move_bound = ctx.bound + 1
            effects.append("no move next bound")
        if serious and not victim.crawl_only:
            victim.crawl_only = True
            effects.append("can only crawl for the rest of the game")
    elif location.endswith("_arm"):
        if serious:
            effects.append(f"his {PART_WORDS[location]} is useless")
            dropped = drop_from_hand(ctx, victim, location, holding)
            if dropped:
                effects.append(f"drops his {dropped}")
    elif serious:
        victim.down = "knocked_down"
        effects.append("knocked down")
        if location == "head":
            bounds = ctx.dice.roll(
                ctx.t.effects.knockout_die, f"{victim.name}: knocked out, bounds (D{ctx.t.effects.knockout_die})"
            )
            victim.knocked_out, victim.knocked_out_bound = bounds, ctx.bound
            effects.append(f"knocked out for {bounds} bound{'s' if bounds > 1 else ''}")
        elif not victim.passout_rolls:
            victim.passout_rolls = True
            faces = "–".join(str(f) for f in (min(ctx.t.effects.passout_on), max(ctx.t.effects.passout_on)))
            effects.append(f"rolls at the end of every bound: passes out on {faces}")
    if victim.down and not serious:
        effects.append(f"stays {STANDING_WORDS.get(victim.down, 'down')}")
    return effects


def drop_from_hand(ctx: Ctx, ch: Character, arm: str, holding: str) -> str:
    """A serious arm wound drops whatever that hand holds (both-handed weapons always)."""
    weapon = ch.in_hand
    if not weapon or weapon not in ch.weapons:
        return ""
    if ctx.t.weapons[weapon].hands == 1 and arm != holding:
        return ""
    drop_weapon(ctx, ch, weapon)
    return ctx.t.weapons[weapon].label


def drop_weapon(ctx: Ctx, ch: Character, weapon: str) -> None:
    ch.weapons.remove(weapon)
    firearm = next((f for f in ch.firearms if f.weapon == weapon), None)
    if firearm is not None:
        ch.firearms.remove(firearm)
    ctx.state.dropped.append(
        Dropped(
            weapon,
            ch.name,
            ctx.bound,
            loaded=bool(firearm and firearm.loaded),
            reload_left=firearm.reload_left if firearm else 0,
        )
    )
    if ch.in_hand == weapon:
        ch.in_hand = None


def _out(ctx: Ctx, victim: Character, why: str, by: str) -> None:
    victim.out, victim.out_how = True, "out of action"
    victim.unconscious, victim.knocked_out, victim.down = False, 0, ""
    ctx.part_all(victim.name)
    text = f"{victim.name} is out of action: {why}."
    ctx.tell(
        WoundPayload(victim.name, victim.side, by, effects=("out of action",), outcome=SEVERITY_WORDS["kill"]),
        text,
        severity="kill",
    )
    ctx.tell(CasualtyPayload(victim.name, victim.side, by), f"{victim.name} ({victim.side}) is out of action.")
    if victim.mounted:
        victim.mounted = False
        ctx.say("horse", f"{victim.name}'s horse runs on without its rider.", figure=victim.name)
        mounts.leave_saddle(ctx, victim)
    morale_triggers(ctx)


def kill_outright(ctx: Ctx, victim: Character, why: str, by: str) -> None:
    _out(ctx, victim, why, by)


def carried_off(ctx: Ctx, rider: Character) -> None:
    """A-SHARPE-39: a runaway horse has carried its rider over the table's edge: both are gone."""
    rider.mounted = False
    if rider.horse is not None:
        rider.horse.loose = False
    _out(ctx, rider, "his runaway horse carries him off the table", rider.name)


# --- falls ------------------------------------------------------------------------------------------


def fall_wound(ctx: Ctx, ch: Character, reason: str, by: str) -> None:
    """A-SHARPE-3: location D6, then 2D6 + the falling modifier on the wound table."""
    location, where, located = location_roll(ctx, ch, f"{ch.name}: {reason}")
    a, b = ctx.two_d6(f"{ch.name}: {reason}, wound 2D6")
    mods = [("falling", ctx.t.wound_modifiers.falling)]
    score = a + b + sum(v for _, v in mods)
    severity = severity_for(ctx, location, score)
    ctx.say(
        "fall",
        f"{ch.name} {reason}: {where} · {severity_text(score, severity, '2D6', mods, f'{a}+{b}')}.",
        figure=ch.name,
        location=location,
        severity=severity,
        **wound_numbers(located, [a, b], mods, score),
    )
    apply_wound(ctx, ch, location, severity, by=by, source="fall")


def _perch(ctx: Ctx, ch: Character, height_ft: float, by: str) -> None:
    """13: wounded on a roof or high place, an initiative check (after the new wound) or he falls."""
    if ch.out:
        return
    check = ability_check(ctx, ch, "I", "keep his footing on the high place")
    outcome = "keeps his footing" if check.ok else f"falls {height_ft:g} ft"
    ctx.say("check", f"{check.text}: {outcome}.", figure=ch.name, **check.data())
    if check.ok:
        return
    if height_ft > ctx.t.effects.fall_over_ft:
        fall_wound(ctx, ch, f"falls {height_ft:g} ft", by)
    if not ch.out:
        ch.down = ch.down or "fallen"


# --- horses -----------------------------------------------------------------------------------------


def unhorse(ctx: Ctx, rider: Character, how: str, *, further: bool, by: str) -> None:
    """The rider is on the ground; the horse goes on its merry way (15)."""
    rider.mounted = False
    if not rider.out:
        rider.down = rider.down or "fallen"
    ctx.say("horse", f"{rider.name} {how}; his horse runs on.", figure=rider.name)
    mounts.leave_saddle(ctx, rider)
    if further and not rider.out:
        check = ability_check(ctx, rider, "D", "fall clear of his horse")
        ctx.say(
            "check",
            f"{check.text}: {'lands unhurt' if check.ok else 'is hurt in the fall'}.",
            figure=rider.name,
            **check.data(),
        )
        if not check.ok:
            fall_wound(ctx, rider, "falls from his horse", by)


def _rider_wounded(ctx: Ctx, rider: Character, severity: str, *, shot: bool, by: str) -> None:
    if rider.out or not rider.mounted:
        return
    if severity == "serious":
        unhorse(ctx, rider, "falls from his horse (a serious wound)", further=shot, by=by)
        return
    check = ability_check(ctx, rider, "D", "keep his seat")
    ctx.say(
        "check",
        f"{check.text}: {'keeps his seat; the horse runs on as before' if check.ok else 'falls'}.",
        figure=rider.name,
        **check.data(),
    )
    if not check.ok:
        unhorse(ctx, rider, "falls from his horse", further=shot, by=by)


def horse_wound(ctx: Ctx, rider: Character, location: str, severity: str, by: str) -> None:
    """A horse is wounded "exactly as if the horse were a man" (15)."""
    horse = rider.horse
    if horse is None or horse.dead:
        return
    if severity in ("light", "serious"):
        horse.wounds.append(Wound(location, severity, ctx.bound, by))
    horse_points = sum(
        ctx.t.wound_points.light if w.severity == "light" else ctx.t.wound_points.serious for w in horse.wounds
    )
    collapses = severity == "kill" or horse_points >= ctx.t.wound_points.serious
    word = SEVERITY_WORDS[severity]
    if collapses:
        horse.dead = True
        ctx.say(
            "horse",
            f"{rider.name}'s horse: {word} to the {PART_WORDS[location]} — it collapses where it stands.",
            figure=rider.name,
            location=location,
            severity=severity,
        )
        if rider.mounted:
            rider.mounted = False
            rider.down = rider.down or "fallen"
            mounts.leave_saddle(ctx, rider)
            check = ability_check(ctx, rider, "D", "escape harm as his horse goes down")
            ctx.say(
                "check",
                f"{check.text}: {'escapes harm' if check.ok else 'is hurt'}.",
                figure=rider.name,
                **check.data(),
            )
            if not check.ok:
                fall_wound(ctx, rider, "falls with his horse", by)
        return
    effects = []
    if severity == "light":
        if horse.pace == "gallop" or horse.pace == "walk":
            horse.pace = ctx.t.horses.wounded_pace
            effects.append(f"now at the {horse.pace}")
        horse.lamed = True
        effects.append("will not gallop again")
    text = (
        f"{rider.name}'s horse: {word} to the {PART_WORDS[location]}"
        + (f" — {'; '.join(effects)}" if effects else "")
        + "."
    )
    ctx.say("horse", text, figure=rider.name, location=location, severity=severity)
    if rider.mounted:
        ok, veer = control_check(ctx, rider, "control his hurt horse", reason="wounded")
        if not ok and ctx.state.field is not None:
            rider.control_bound = ctx.bound
            if not mounts.has_run(ctx, rider):
                bolt(ctx, rider, veer)


def bolt(ctx: Ctx, rider: Character, veer: int) -> None:
    """A-SHARPE-39, A-SHARPE-42: on the map a horse out of control runs on at its pace, veering as
    table H's die ``veer`` says (0: straight on); over the table's edge it is gone, and its rider."""
    turn = onmap.veer_turn(ctx.t.horses.veer_d6[veer - 1]) if veer else 0.0
    ran = mounts.run_away(ctx, rider, turn)
    if ran is not None and ran.gone:
        carried_off(ctx, rider)


def control_check(ctx: Ctx, rider: Character, doing: str, *, reason: str) -> tuple[bool, int]:
    """A dexterity check to keep (or regain) control; a wounded horse out of control veers (table H):
    whether he has control, and the veer die's face (0 when the horse does not veer)."""
    horse = rider.horse
    assert horse is not None
    check = ability_check(ctx, rider, "D", doing)
    if check.ok:
        horse.lost_control = ""
        ctx.say("check", f"{check.text}: the horse is under control.", figure=rider.name, **check.data())
        return True, 0
    horse.lost_control = horse.lost_control if horse.lost_control == "wounded" else reason
    if horse.lost_control == "wounded":
        face = ctx.d6(f"{rider.name}: which way the horse veers")
        ctx.say(
            "check",
            f"{check.text}: the horse veers {ctx.t.horses.veer_d6[face - 1]} (D6 {face}); no attacks, parries or ripostes.",
            figure=rider.name,
            veer=face,
            **check.data(),
        )
        return False, face
    ctx.say(
        "check",
        f"{check.text}: the horse runs on at the same speed; he may only parry.",
        figure=rider.name,
        **check.data(),
    )
    return False, 0


# --- morale (14, optional) -----------------------------------------------------------------------


def standing(ch: Character) -> bool:
    return not ch.out and not ch.unconscious and ch.knocked_out == 0


def morale_triggers(ctx: Ctx) -> None:
    """An officer falls with no other to command, or every officer and sergeant is dead: a test."""
    if not ctx.t.options.morale:
        return
    for side in ctx.t.sides:
        if side in ctx.state.broken:
            continue
        mine = [c for c in ctx.state.characters if c.side == side]
        officers = [c for c in mine if ctx.t.kinds[c.kind].role == "officer"]
        sergeants = [c for c in mine if ctx.t.kinds[c.kind].role == "sergeant"]
        for officer in officers:
            key = f"officer:{officer.name}"
            if standing(officer) or key in ctx.state.morale_done or any(standing(o) for o in officers):
                continue
            ctx.state.morale_done.append(key)
            _morale_test(ctx, side, f"{officer.name} has fallen with no officer to take his place")
        key = f"command:{side}"
        if officers and sergeants and all(c.out for c in officers + sergeants) and key not in ctx.state.morale_done:
            ctx.state.morale_done.append(key)
            _morale_test(ctx, side, "both officer and sergeant are dead")


def _morale_test(ctx: Ctx, side: str, why: str) -> None:
    if side in ctx.state.broken:
        return
    order = {name: i for i, name in enumerate(ctx.state.order)}
    candidates = [c for c in ctx.state.characters if c.side == side and standing(c)]
    if not candidates:
        return
    senior = min(candidates, key=lambda c: (-c.start_I, order.get(c.name, 999)))
    check = ability_check(ctx, senior, "I", f"morale test for the {side} ({why})")
    if not check.ok:
        ctx.state.broken.append(side)
    outcome = "they hold" if check.ok else f"the {side} are broken: they may only defend and withdraw"
    ctx.say("morale", f"Morale: {check.text}: {outcome}.", side=side, senior=senior.name, **check.data())
