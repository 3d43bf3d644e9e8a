"""Melee (8-11, 15-17): the attack, the defender's choice (a Decision for his side), turning to face,
parry, riposte, dodge, distraction, second attacks from the side or rear, draws, recoil and follow-up,
obstacles, bare hands, horsemen, silent approach and killing unconscious men."""

from __future__ import annotations

from typing import Any

from rules.battlefield import point_of
from rules.core import DecisionPayload, RuleError, modifier_data
from rules.geometry import Point, centre_distance
from rules.geometry.measure import CONTACT_TOLERANCE
from rules.sharpe import onmap
from rules.sharpe.bound import actor, loading_what, require_standing, require_unbroken
from rules.sharpe.common import Ctx, mods_text
from rules.sharpe.decisions import LABELS, SHOT_DODGE, ask, attack_of, figure_of, kind_of, number_of, shot_of, values_of
from rules.sharpe.options import AttackOptions, DefendOptions, KillOptions
from rules.sharpe.profile import (
    Roster,
    ability_check,
    arm_hurt,
    current,
    left_handed,
    melee_weapon,
    spend,
    usable,
    wound_counts,
)
from rules.sharpe.shooting import resume_dodge
from rules.sharpe.state import Attack, Character
from rules.sharpe.wounds import (
    apply_wound,
    horse_wound,
    kill_outright,
    location_roll,
    severity_for,
    severity_text,
    wound_numbers,
)
from rules.words import blank, measured_against

BARE = ("bare", "bare_hands", "hands", "fists", "none", "unarmed")


# --- declaring an attack -----------------------------------------------------------------------------


def attack(ctx: Ctx, p: AttackOptions) -> None:
    attacker = actor(ctx, p.attacker)
    require_standing(ctx, attacker, "attack")
    _may_attack(ctx, attacker)
    defender = ctx.enemy(attacker, p.defender, "attack")
    atk = _declare(ctx, attacker, defender, p)
    engaged = defender.fought_bound == ctx.bound
    atk.turned = (atk.from_side == "front" or not engaged) and defender.murdered_bound != ctx.bound
    onmap.face(ctx.state, attacker.name, defender.name)
    if atk.turned:
        onmap.face(ctx.state, defender.name, attacker.name)
    attacker.attacked_bound = attacker.fought_bound = attacker.busy_bound = ctx.bound
    defender.fought_bound = ctx.bound
    if atk.weapon:
        attacker.in_hand = atk.weapon
    ctx.touch(attacker.name, defender.name)
    if not rides_past(attacker):
        attacker.contact_bound = ctx.bound
    ctx.say(
        "attack",
        _declaration(ctx, atk, attacker, defender),
        attacker=attacker.name,
        defender=defender.name,
        side=atk.from_side,
        weapon=atk.weapon or "bare hands",
    )
    if atk.ride_over:
        atk.stage = "ride_over"
    elif atk.at_horse:
        atk.stage = "horse_defence"
    elif atk.silent:
        _silent_approach(ctx, atk, attacker, defender)
    offer(ctx, atk)


def rides_past(ch: Character) -> bool:
    """A horseman slashes as he rides past and goes on to the end of his move (15); one whose horse
    stands at the halt (a faster pace refused, or never asked) rides past nobody and stays in contact."""
    return ch.mounted and ch.horse is not None and ch.horse.pace != "halt"


def _may_attack(ctx: Ctx, ch: Character) -> None:
    require_unbroken(ctx, ch, "attack")
    if ch.attacked_bound == ctx.bound:
        raise RuleError(f"{ch.name} has made his attack this bound: one attack per bound.")
    if ch.shot_bound == ctx.bound:
        raise RuleError(f"{ch.name} fired this bound: nobody shoots and attacks in the same bound.")
    if ch.loading_bound == ctx.bound:
        raise RuleError(f"{ch.name} is loading {loading_what(ctx, ch)} this bound.")
    if ch.mounted and ch.horse is not None and ch.horse.lost_control:
        raise RuleError(f"{ch.name}'s horse is out of control: he cannot attack until he masters it.")


def _on_map(ctx: Ctx, attacker: Character, defender: Character, p: AttackOptions) -> None:
    """A-SHARPE-36, A-SHARPE-40: on the map the side attacked and the ground are measured, and the
    bases must touch."""
    for option, what in (
        ("flank", "the side attacked"),
        ("no_room", "the room to recoil"),
        ("uphill", "who is uphill"),
        ("obstacle", "an obstacle between you"),
        ("bad_going", "bad going"),
        ("perch_ft", "a man's height (a wall's top he stands on)"),
    ):
        if getattr(p, option) is not None:
            raise RuleError(f"On the map the bot measures {what}: leave {option}: out.")
    gap = onmap.gap_between(ctx.t, ctx.state, attacker, defender)
    if gap > CONTACT_TOLERANCE:
        raise RuleError(
            f"{attacker.name} is {measured_against(gap, CONTACT_TOLERANCE)} from {defender.name}: move into contact first "
            f"(/sharpe move toward:{defender.name})."
        )


def _declare(ctx: Ctx, attacker: Character, defender: Character, p: AttackOptions) -> Attack:
    opts = ctx.t.options
    atk = Attack(attacker.name, defender.name)
    if ctx.state.field is not None:
        _on_map(ctx, attacker, defender, p)
        atk.from_side = onmap.attack_arc(ctx.t, ctx.state, attacker, defender)
    else:
        atk.from_side = p.flank or "front"
    atk.uphill = p.uphill or "none"
    atk.obstacle = p.obstacle or "none"
    atk.no_room = bool(p.no_room)
    if ctx.state.field is not None:
        room = onmap.away(ctx.t, ctx.state, defender, attacker.name, onmap.PACE, move=False)
        atk.no_room = room is not None and room.went < onmap.PACE - 1e-6
    atk.follow_up = bool(p.follow_up)
    atk.capture = bool(p.capture)
    atk.bad_going = bool(p.bad_going)
    if ctx.state.field is not None:
        ground = onmap.fight_ground(ctx.t, ctx.state, attacker, defender)
        atk.uphill, atk.bad_going = ground.uphill, ground.bad_going
        if ground.obstacle is not None:
            atk.obstacle = "counter" if attacker.parried_bound == ctx.bound else "defender"
    atk.left_hand = bool(p.left_hand)
    atk.perch_ft = float(p.perch_ft or 0)
    if ctx.state.field is not None:
        atk.perch_ft = onmap.perch_ft(ctx.t, ctx.state, defender)
    atk.weapon = _weapon(ctx, attacker, p.weapon)
    atk.blow = _blow(ctx, attacker, p.blow) if not atk.weapon else ""
    if p.blow is not None and atk.weapon:
        raise RuleError("Punches, kicks and head butts are for bare hands: leave out the weapon, or say weapon:bare.")
    atk.at_horse = p.at == "horse"
    if atk.at_horse and not (defender.mounted and opts.horsemen):
        raise RuleError(f"{defender.name} is not on a horse.")
    if atk.at_horse and attacker.mounted:
        raise RuleError("A horseman attacks the rider, not his horse.")
    atk.ride_over = bool(p.ride_over)
    if atk.ride_over:
        pace = attacker.horse.pace if attacker.mounted and attacker.horse else ""
        if pace not in ctx.t.horses.ride_over_paces:
            raise RuleError(f"Only a horseman at the {' or '.join(ctx.t.horses.ride_over_paces)} rides a man down.")
        if defender.mounted:
            raise RuleError(f"{defender.name} is mounted: a horseman rides down men on foot.")
    atk.silent = bool(p.silent)
    if atk.silent:
        if not opts.silent_approach:
            raise RuleError("The silent approach is not used in this campaign.")
        if atk.from_side != "rear" or attacker.mounted:
            raise RuleError("A silent approach is made on foot, from behind: say flank:rear.")
        if defender.fought_bound == ctx.bound:
            raise RuleError(f"{defender.name} is fighting already this bound: nobody sneaks up on him now.")
    return atk


def _weapon(ctx: Ctx, ch: Character, wanted: Any) -> str:
    if blank(wanted):
        return melee_weapon(ctx.t, ch, attacking=True, bound=ctx.bound)
    text = "_".join(str(wanted).split()).casefold()
    if text in BARE:
        return ""
    key = Roster(ctx.t).weapon(ch.name, str(wanted))
    weapon = ctx.t.weapons[key]
    if not weapon.melee:
        raise RuleError(f"A {weapon.label} is not a close-combat weapon.")
    why = usable(ctx.t, ch, key, melee=True)
    if why:
        raise RuleError(f"{why}.")
    if ch.picked_up.get(key) == ctx.bound:
        raise RuleError(
            f"{ch.name} picked up that {weapon.label} this bound: he may defend with it, attack next bound."
        )
    return key


def _blow(ctx: Ctx, ch: Character, wanted: str | None) -> str:
    """A-SHARPE-31: arm wounds leave a punch with the other hand, a kick or a head butt; leg wounds no kick."""
    both_arms = arm_hurt(ch, "left_arm") and arm_hurt(ch, "right_arm")
    legs = arm_hurt(ch, "legs")
    blow = wanted or ("headbutt" if both_arms else "punch")
    if blow == "punch" and both_arms:
        raise RuleError(f"Both {ch.name}'s arms are wounded: he can only kick or head butt.")
    if blow == "kick" and legs:
        raise RuleError(f"{ch.name}'s leg wound stops him kicking: he can punch or head butt.")
    return blow


def _declaration(ctx: Ctx, atk: Attack, attacker: Character, defender: Character) -> str:
    target = f"{defender.name}'s horse" if atk.at_horse else defender.name
    verb = "rides at" if atk.ride_over else ("sneaks up on" if atk.silent else "attacks")
    side = "" if atk.from_side == "front" else f" from the {atk.from_side}"
    weapon = (
        f"a {atk.blow.replace('headbutt', 'head butt')}" if not atk.weapon else f"his {ctx.t.weapons[atk.weapon].label}"
    )
    capture = ", to capture him" if atk.capture else ""
    return f"{attacker.name} {verb} {target}{side} with {weapon}{capture}."


def _silent_approach(ctx: Ctx, atk: Attack, attacker: Character, defender: Character) -> None:
    """17: D6 + modifiers <= I hears him (a 6 never does); then dexterity to turn; +3 not turned, +1 unheard."""
    sa = ctx.t.silent_approach
    light, serious = wound_counts(defender)
    mods = [("his wounds", light * sa.defender_each_light_wound + serious * sa.defender_each_serious_wound)]
    if attacker.moved_bound == ctx.bound:
        mods.append((f"attacker at a {attacker.pace}", sa.attacker_pace.get(attacker.pace, 0)))
    kind = ctx.t.kinds[attacker.kind].approach
    mods.append((kind.replace("_", " "), sa.attacker_class[kind]))
    heard = ability_check(ctx, defender, "I", f"hear {attacker.name} coming", mods)
    atk.tried.append("turn")
    if not heard.ok:
        atk.not_heard, atk.turned = True, False
        atk.bonus = sa.not_turned_bonus + sa.not_heard_bonus
        ctx.say(
            "check",
            f"{heard.text}: he hears nothing (+{atk.bonus} to the attack).",
            figure=defender.name,
            **heard.data(),
        )
        return
    ctx.say("check", f"{heard.text}: he hears him coming.", figure=defender.name, **heard.data())
    turn = ability_check(ctx, defender, "D", f"turn in time to face {attacker.name}", _bad_going(ctx, atk))
    atk.turned = turn.ok
    if turn.ok:
        onmap.face(ctx.state, defender.name, attacker.name)
    atk.bonus = 0 if turn.ok else sa.not_turned_bonus
    outcome = "he turns in time" if turn.ok else f"too slow to turn (+{atk.bonus} to the attack)"
    ctx.say("check", f"{turn.text}: {outcome}.", figure=defender.name, **turn.data())


def _bad_going(ctx: Ctx, atk: Attack) -> list[tuple[str, int]]:
    return [("fighting in bad going", ctx.t.action_modifiers["fight_bad_going"])] if atk.bad_going else []


# --- the defender's choice ---------------------------------------------------------------------------


def choices_for(ctx: Ctx, atk: Attack) -> list[str]:
    attacker, defender = ctx.get(atk.attacker), ctx.get(atk.defender)
    if atk.stage == "ride_over":
        helpless = defender.down or defender.unconscious or defender.knocked_out
        return ["stand"] if helpless or current(ctx.t, defender, "D") < 1 else ["dodge", "stand"]
    if atk.stage == "horse_defence":
        rider_can = (
            defender.mounted
            and not (defender.horse and defender.horse.lost_control == "wounded")
            and current(ctx.t, defender, "C") >= ctx.t.melee.costs.parry
            and melee_weapon(ctx.t, defender, attacking=False, bound=ctx.bound) != ""
        )
        return ["rider_parry", "horse_d6"] if rider_can else ["horse_d6"]
    if defender.unconscious or defender.knocked_out:
        return ["d6"]
    control = defender.horse.lost_control if defender.mounted and defender.horse else ""
    costs = ctx.t.melee.costs
    c_left, d_left, i_left = (current(ctx.t, defender, a) for a in ("C", "D", "I"))
    room = not (atk.no_room and ctx.t.options.no_parry_without_room)
    choices = []
    if control != "wounded" and room and c_left >= costs.parry:
        choices.append("parry")
    weapon = melee_weapon(ctx.t, defender, attacking=False, bound=ctx.bound)
    if not control and room and c_left >= costs.riposte and weapon:
        choices.append("riposte")
    others = [ctx.other(c, defender.name) for c in ctx.contacts_of(defender.name)]
    if (
        not control
        and not defender.mounted
        and not defender.down
        and d_left >= costs.dodge
        and all(o == attacker.name or ctx.get(o).side == defender.side or ctx.get(o).out for o in others)
    ):
        choices.append("dodge")  # A-SHARPE-29
    if not control and "distract" not in atk.tried and i_left >= 1:
        choices.append("distract")
    if not control and _may_turn(ctx, atk, defender):
        choices.append("turn")
    if (
        attacker.mounted
        and not defender.mounted
        and ctx.t.options.horsemen
        and not control
        and defender.attacked_bound != ctx.bound
        and not atk.ride_over
    ):
        choices.append("horse")
    if "parry" not in choices:
        choices.append("d6")  # A-SHARPE-9
    return choices


def _may_turn(ctx: Ctx, atk: Attack, defender: Character) -> bool:
    """A defender already fighting may test to turn, unless held by a draw this bound (A-SHARPE-23)."""
    if atk.turned or "turn" in atk.tried or defender.murdered_bound == ctx.bound:
        return False
    if current(ctx.t, defender, "D") < 1:
        return False
    held = [c for c in ctx.contacts_of(defender.name) if c.locked and ctx.other(c, defender.name) != atk.attacker]
    return not held


def offer(ctx: Ctx, atk: Attack) -> None:
    """Ask the defender's side (the rider's, for his horse) which defence; one choice is taken at once."""
    choices = choices_for(ctx, atk)
    if len(choices) == 1:
        resolve(ctx, atk, choices[0])
        return
    defender = ctx.get(atk.defender)
    attacker = ctx.get(atk.attacker)
    bonus = _side_bonus(ctx, atk)
    edge = (
        f" (+{bonus} to him unless {defender.name} turns)"
        if bonus and "turn" in choices
        else (f" (+{bonus} to him)" if bonus else "")
    )
    points = ", ".join(f"{a} {current(ctx.t, defender, a)}" for a in ("C", "D", "I"))
    if atk.stage == "ride_over":
        prompt = f"{attacker.name} rides at {defender.name} to ride him down: does {defender.name} dodge ({points})?"
    elif atk.stage == "horse_defence":
        prompt = f"{attacker.name} attacks {defender.name}'s horse: does the rider parry for it ({points})?"
    else:
        side = "" if atk.from_side == "front" else f" from the {atk.from_side}"
        prompt = f"{attacker.name} attacks {defender.name}{side}{edge}: how does {defender.name} defend ({points})?"
    ask(ctx, defender, atk.stage, choices, prompt, attack=atk)
    ctx.tell(
        DecisionPayload(defender.side, defender.name, tuple(choices)), f"Waiting for the {defender.side}: {prompt}"
    )


def resolve(ctx: Ctx, atk: Attack, choice: str) -> None:
    if atk.stage == "ride_over":
        _ride_over(ctx, atk, choice)
    elif atk.stage == "horse_defence":
        _horse_contest(ctx, atk, choice)
    elif choice == "turn":
        _turn(ctx, atk)
        offer(ctx, atk)
    elif choice == "distract":
        if not _distract(ctx, atk):
            offer(ctx, atk)
    elif choice == "dodge":
        _dodge(ctx, atk)
    else:
        _contest(ctx, atk, choice)


def _turn(ctx: Ctx, atk: Attack) -> None:
    defender = ctx.get(atk.defender)
    atk.tried.append("turn")
    check = ability_check(ctx, defender, "D", f"turn to face {atk.attacker}", _bad_going(ctx, atk))
    atk.turned = check.ok
    if check.ok:
        onmap.face(ctx.state, defender.name, atk.attacker)
    outcome = "he turns to face him" if check.ok else "the attack comes in too quickly"
    ctx.say("check", f"{check.text}: {outcome}.", figure=defender.name, **check.data())


def _distract(ctx: Ctx, atk: Attack) -> bool:
    """11: D6 vs initiative (a 6 fails), one point less for each further test; success stops the attacker."""
    defender, attacker = ctx.get(atk.defender), ctx.get(atk.attacker)
    atk.tried.append("distract")
    check = ability_check(ctx, defender, "I", f"distract {attacker.name}", cost=ctx.t.melee.costs.distraction)
    if not check.ok:
        ctx.say("check", f"{check.text}: {attacker.name} does not fall for it.", figure=defender.name, **check.data())
        return False
    attacker.halted_bound = ctx.bound
    ctx.part(attacker.name, defender.name)
    ctx.say(
        "check",
        f"{check.text}: {attacker.name} falls for it — the attack fails and he does not move again this bound.",
        figure=defender.name,
        **check.data(),
    )
    return True


# --- resolving -------------------------------------------------------------------------------------------


def _side_bonus(ctx: Ctx, atk: Attack) -> int:
    if atk.turned:
        return 0
    if atk.silent:
        return atk.bonus
    return ctx.t.melee.not_turned_attack.get(atk.from_side, 0)


def _wound_mods(ch: Character, ctx: Ctx) -> list[tuple[str, int]]:
    light, serious = wound_counts(ch)
    m = ctx.t.melee
    return [("his light wounds", light * m.each_light_wound), ("his serious wounds", serious * m.each_serious_wound)]


def attack_mods(ctx: Ctx, atk: Attack, attacker: Character, defender: Character) -> list[tuple[str, int]]:
    m = ctx.t.melee
    mods = _wound_mods(attacker, ctx)
    if atk.uphill == "attacker":
        mods.append(("uphill", m.uphill))
    if attacker.mounted:
        mods.append(("on horseback", m.on_horseback))
    if defender.down and not atk.at_horse:
        mods.append(("a fallen man", m.attacking_fallen_man))
    if left_handed(ctx.t, attacker, atk.weapon, atk.left_hand):
        mods.append(("left hand", m.wrong_hand))
    bonus = _side_bonus(ctx, atk)
    if bonus:
        why = "unheard from behind" if atk.not_heard else (f"from the {atk.from_side}, not turned")
        mods.append((why, bonus))
    if atk.obstacle == "counter":
        mods.append(("across the obstacle", m.parrying_at_obstacle))
    return [x for x in mods if x[1]]


def defence_mods(ctx: Ctx, atk: Attack, defender: Character, choice: str, weapon: str) -> list[tuple[str, int]]:
    m = ctx.t.melee
    mods = _wound_mods(defender, ctx)
    if atk.uphill == "defender":
        mods.append(("uphill", m.uphill))
    if defender.mounted:
        mods.append(("on horseback", m.on_horseback))
    if defender.down:
        mods.append(("on the ground", m.fallen_defender))
    if left_handed(ctx.t, defender, weapon, False):
        mods.append(("left hand", m.wrong_hand))
    if choice == "parry" and not weapon and atk.weapon:
        mods.append(("bare hands against a weapon", m.barehanded_parry_vs_weapon))
    if choice == "parry" and atk.obstacle == "defender":
        mods.append(("at the obstacle", m.parrying_at_obstacle))
    if not atk.turned and atk.from_side != "front":
        mods.append(("not turned", m.not_turned_defence.get(choice, 0)))
    return [x for x in mods if x[1]]


def _sides(
    att_base: int, att_mods: list[tuple[str, int]], a: int, def_base: int, def_mods: list[tuple[str, int]], d: int
) -> dict[str, Any]:
    """The numbers of both sides of a close-combat contest, as event data: each side's close combat
    (C) points, modifiers and their sum, and die (the totals are ``attack`` and ``defence``)."""

    def side(base: int, mods: list[tuple[str, int]], die: int) -> dict[str, Any]:
        return {
            "points": base,
            "modifiers": modifier_data(mods),
            "modifier": sum(value for _, value in mods),
            "roll": die,
            "total": base + sum(value for _, value in mods) + die,
        }

    return {"attack_side": side(att_base, att_mods, a), "defence_side": side(def_base, def_mods, d)}


def _contest(ctx: Ctx, atk: Attack, choice: str) -> None:
    """9: each side C + modifiers + D6 (a bare D6 alone when nothing is left); higher wins, equal is a draw."""
    attacker, defender = ctx.get(atk.attacker), ctx.get(atk.defender)
    costs = ctx.t.melee.costs
    weapon = melee_weapon(ctx.t, defender, attacking=False, bound=ctx.bound) if choice in ("parry", "riposte") else ""
    att_base = current(ctx.t, attacker, "C")
    att_mods = attack_mods(ctx, atk, attacker, defender)
    bare = choice in ("d6", "horse")
    def_base = 0 if bare else current(ctx.t, defender, "C")
    def_mods = [] if bare else defence_mods(ctx, atk, defender, choice, weapon)
    a = ctx.d6(f"{attacker.name}: attack on {defender.name}, C {att_base} + D6")
    d = ctx.d6(f"{defender.name}: {'bare D6' if bare else choice + f', C {def_base} + D6'} against {attacker.name}")
    att_total = att_base + sum(v for _, v in att_mods) + a
    def_total = def_base + sum(v for _, v in def_mods) + d
    spend(attacker, "C", costs.attack)
    if choice in ("parry", "riposte"):
        spend(defender, "C", costs.parry if choice == "parry" else costs.riposte)
        defender.parried_bound = ctx.bound
        if weapon:
            defender.in_hand = weapon
    defender.busy_bound = ctx.bound
    how = {"d6": "bare D6", "horse": "bare D6"}.get(choice, choice)
    def_text = f"{d}" if bare else f"C {def_base}{mods_text(def_mods)} + D6 {d} = {def_total}"
    head = (
        f"{attacker.name} attacks {defender.name}: C {att_base}{mods_text(att_mods)} + D6 {a} = {att_total}"
        f" vs {how} {def_text}"
    )
    data = {
        "attacker": attacker.name,
        "defender": defender.name,
        "choice": choice,
        "attack": att_total,
        "defence": def_total,
        "rolls": [a, d],
        **_sides(att_base, att_mods, a, def_base, def_mods, d),
    }
    if att_total > def_total:
        _melee_wound(ctx, atk, attacker, defender, att_total - def_total, f"{head}: hit", data)
    elif def_total > att_total and choice == "riposte":
        _melee_wound(
            ctx, atk, defender, attacker, def_total - att_total, f"{head}: the riposte goes home", data, riposte=True
        )
    elif def_total > att_total:
        ctx.say("melee", f"{head}: {_parried(ctx, atk, attacker, defender, choice)}.", **data, result="parried")
    else:
        ctx.touch(attacker.name, defender.name, locked=True)
        ctx.say("melee", f"{head}: a draw — they stay in contact and fight on next bound.", **data, result="draw")
    if choice == "horse" and not defender.out and defender.wounded_bound != ctx.bound:
        _go_for_the_horse(ctx, defender, attacker)


def _parried(ctx: Ctx, atk: Attack, attacker: Character, defender: Character, choice: str) -> str:
    """A-SHARPE-7: the parrier recoils 1 pace (not at an obstacle, without room, or on a horse); follow-up."""
    if choice != "parry":
        return "the attack fails"
    if atk.obstacle == "defender" or atk.no_room or defender.mounted:
        why = (
            "holds the obstacle"
            if atk.obstacle == "defender"
            else ("keeps his saddle" if defender.mounted else "has no room to give ground")
        )
        return f"parried — {defender.name} {why} and stays where he is"
    if ctx.state.field is not None:
        return _parried_on_map(ctx, atk, attacker, defender)
    if atk.follow_up and not attacker.mounted:
        return f"parried — {defender.name} recoils 1 pace and {attacker.name} follows up"
    ctx.part(attacker.name, defender.name)
    return f"parried — {defender.name} recoils 1 pace"


def _parried_on_map(ctx: Ctx, atk: Attack, attacker: Character, defender: Character) -> str:
    """A-SHARPE-37: the parrier is moved a pace straight back from the attacker; one who follows
    up is moved after him the same way."""
    before = point_of(onmap.field_of(ctx.state), defender.name)
    pushed = onmap.away(ctx.t, ctx.state, defender, attacker.name, onmap.PACE)
    if pushed is None or before is None:
        ctx.part(attacker.name, defender.name)
        return f"parried — {defender.name} recoils 1 pace"
    text = f"parried — {defender.name} {onmap.recoil_text(pushed, onmap.PACE)}"
    if atk.follow_up and not attacker.mounted and pushed.went > 0:
        _follow(ctx, attacker, defender, before, pushed.at)
        return f"{text}, and {attacker.name} follows up"
    ctx.part(attacker.name, defender.name)
    return text


def _follow(ctx: Ctx, striker: Character, victim: Character, was: Point, now: Point) -> None:
    """The striker follows his man the way he went (A-SHARPE-37), and faces him."""
    went = centre_distance(was, now)
    if went <= 1e-6:
        return
    unit = ((now.x - was.x) / went, (now.y - was.y) / went)
    onmap.slide(ctx.t, ctx.state, striker, unit, went, (victim.name,))
    onmap.face(ctx.state, striker.name, victim.name)


def _melee_wound(
    ctx: Ctx,
    atk: Attack,
    striker: Character,
    victim: Character,
    diff: int,
    head: str,
    data: dict[str, Any],
    *,
    riposte: bool = False,
    two_dice: bool = False,
) -> None:
    """Melee wound: winner − loser + D6 + modifiers (after a failed dodge 2D6 + modifiers, A-SHARPE-30)."""
    blow = atk.blow if not riposte else ""
    capture = atk.capture and not riposte
    swap = atk.from_side if not riposte and not atk.turned else "front"
    reason = f"{striker.name} → {victim.name}"
    location, where, located = location_roll(
        ctx, victim, reason, from_side=swap, capture=capture, blow=blow, auto_head=capture and atk.not_heard
    )
    wm = ctx.t.wound_modifiers
    strength = current(ctx.t, striker, "S")
    band = next(b for b in wm.strength if b.upto is None or strength <= b.upto)
    mods = [(f"strength {strength}", band.mod)]
    weapon = atk.weapon if not riposte else melee_weapon(ctx.t, striker, attacking=False, bound=ctx.bound)
    if not weapon:
        mods.append(("no weapon", wm.no_weapon))
    if not riposte and atk.no_room:
        mods.append(("cannot recoil", wm.unable_to_recoil))
    if victim.down:
        mods.append(("on the floor", wm.on_the_floor))
    mods = [m for m in mods if m[1]]
    if not two_dice:
        die = ctx.d6(f"{reason}: wound D6")
        base = f"{diff} + D6 {die}"
        score = diff + die + sum(v for _, v in mods)
        numbers = {**wound_numbers(located, [die], mods, score), "margin": diff}
    else:
        a, b = ctx.two_d6(f"{reason}: wound 2D6")
        base = f"2D6 {a}+{b}"
        score = a + b + sum(v for _, v in mods)
        numbers = wound_numbers(located, [a, b], mods, score)
    severity = severity_for(ctx, location, score)
    ctx.say(
        "melee",
        f"{head} · {where} · {severity_text(score, severity, 'score', mods, base)}.",
        **data,
        result="wound",
        striker=striker.name,
        victim=victim.name,
        location=location,
        severity=severity,
        **numbers,
    )
    perch = atk.perch_ft if victim.name == atk.defender else 0.0
    was = point_of(ctx.state.field, victim.name) if ctx.state.field is not None else None
    no_room = not riposte and atk.no_room
    apply_wound(
        ctx,
        victim,
        location,
        severity,
        by=striker.name,
        source="melee",
        capture=capture,
        perch_ft=perch,
        no_room=no_room,
    )
    follow = not riposte and atk.follow_up and not striker.mounted
    if follow and was is not None and ctx.state.field is not None and not victim.out:
        now = point_of(ctx.state.field, victim.name)
        if now is not None:
            _follow(ctx, striker, victim, was, now)
    if not (victim.unconscious or victim.knocked_out or follow):
        ctx.part(striker.name, victim.name)
    if rides_past(striker) and not riposte:
        ctx.say("horse", f"{striker.name} rides on to the end of his move.", figure=striker.name)


def _dodge(ctx: Ctx, atk: Attack) -> None:
    """A-SHARPE-6: a dexterity check, +1 against a sword thrust; a failure lets the blow land (A-SHARPE-30)."""
    attacker, defender = ctx.get(atk.attacker), ctx.get(atk.defender)
    mods = []
    if atk.weapon and ctx.t.weapons[atk.weapon].dodge_modifier:
        mods.append((f"a {ctx.t.weapons[atk.weapon].label} thrust", ctx.t.weapons[atk.weapon].dodge_modifier))
    mods += _bad_going(ctx, atk)
    spend(attacker, "C", ctx.t.melee.costs.attack)
    defender.dodged_bound = defender.busy_bound = ctx.bound
    check = ability_check(ctx, defender, "D", f"dodge {attacker.name}", mods, cost=ctx.t.melee.costs.dodge)
    data = {"attacker": attacker.name, "defender": defender.name, "choice": "dodge", **check.data()}
    if check.ok:
        ctx.say("melee", f"{check.text}: he dodges — the attack misses.", **data, result="dodged")
        return
    _melee_wound(ctx, atk, attacker, defender, 0, f"{check.text}: the blow lands", data, two_dice=True)


# --- horsemen (15) -----------------------------------------------------------------------------------


def _ride_over(ctx: Ctx, atk: Attack, choice: str) -> None:
    attacker, defender = ctx.get(atk.attacker), ctx.get(atk.defender)
    pace = attacker.horse.pace if attacker.horse else "canter"
    if choice == "dodge":
        defender.dodged_bound = defender.busy_bound = ctx.bound
        mods = [(f"a horse at the {pace}", ctx.t.horses.ride_over_dodge_modifier.get(pace, 0))]
        check = ability_check(ctx, defender, "D", f"dodge {attacker.name}'s horse", mods, cost=ctx.t.melee.costs.dodge)
        if check.ok:
            ctx.say(
                "melee",
                f"{check.text}: he jumps clear — {attacker.name} slashes at him as he goes by.",
                attacker=attacker.name,
                defender=defender.name,
                result="dodged",
                **check.data(),
            )
            atk.ride_over, atk.stage = False, "defence"
            offer(ctx, atk)
            return
        head = f"{check.text}: ridden down"
    else:
        head = f"{defender.name} stands: ridden down"
    reason = f"{attacker.name}'s horse → {defender.name}"
    location, where, located = location_roll(ctx, defender, reason)
    a, b = ctx.two_d6(f"{reason}: wound 2D6")
    wm = ctx.t.wound_modifiers
    mods = [("hit by a horse", wm.hit_by_horse)] + ([("on the floor", wm.on_the_floor)] if defender.down else [])
    score = a + b + sum(v for _, v in mods)
    severity = severity_for(ctx, location, score)
    ctx.say(
        "melee",
        f"{head} · {where} · {severity_text(score, severity, '2D6', mods, f'{a}+{b}')}.",
        attacker=attacker.name,
        defender=defender.name,
        result="ridden down",
        location=location,
        severity=severity,
        **wound_numbers(located, [a, b], mods, score),
    )
    apply_wound(ctx, defender, location, severity, by=attacker.name, source="horse")
    if severity != "none" and attacker.mounted:
        _trip(ctx, attacker, defender)
    ctx.part(attacker.name, defender.name)


def _trip(ctx: Ctx, rider: Character, man: Character) -> None:
    """The horse checks for tripping on the body: a wound on it, as if the man had shot it, −1."""
    reason = f"{rider.name}'s horse trips on {man.name}?"
    location, where, located = location_roll(ctx, rider, reason)
    a, b = ctx.two_d6(f"{reason} wound 2D6")
    mods = [("horse hit by man", ctx.t.wound_modifiers.horse_hit_by_man)]
    score = a + b + sum(v for _, v in mods)
    severity = severity_for(ctx, location, score)
    ctx.say(
        "horse",
        f"{rider.name}'s horse stumbles over {man.name}: {where} · {severity_text(score, severity, '2D6', mods, f'{a}+{b}')}.",
        figure=rider.name,
        location=location,
        severity=severity,
        **wound_numbers(located, [a, b], mods, score),
    )
    horse_wound(ctx, rider, location, severity, man.name)


def _go_for_the_horse(ctx: Ctx, man: Character, rider: Character) -> None:
    """15: having survived the horseman's attack, the man on foot attacks the horse."""
    if not rider.mounted or rider.out:
        return
    atk = Attack(
        man.name,
        rider.name,
        at_horse=True,
        stage="horse_defence",
        weapon=melee_weapon(ctx.t, man, attacking=True, bound=ctx.bound),
    )
    man.attacked_bound = man.fought_bound = ctx.bound
    ctx.say(
        "attack",
        f"{man.name} goes for {rider.name}'s horse.",
        attacker=man.name,
        defender=rider.name,
        weapon=atk.weapon or "bare hands",
    )
    offer(ctx, atk)


def _horse_contest(ctx: Ctx, atk: Attack, choice: str) -> None:
    """A horse defends with an unmodified D6, unless its rider parries for it with a weapon."""
    attacker, rider = ctx.get(atk.attacker), ctx.get(atk.defender)
    costs = ctx.t.melee.costs
    att_base = current(ctx.t, attacker, "C")
    att_mods = attack_mods(ctx, atk, attacker, rider)
    parry = choice == "rider_parry"
    weapon = melee_weapon(ctx.t, rider, attacking=False, bound=ctx.bound) if parry else ""
    def_base = current(ctx.t, rider, "C") if parry else 0
    def_mods = defence_mods(ctx, atk, rider, "parry", weapon) if parry else []
    a = ctx.d6(f"{attacker.name}: attack on {rider.name}'s horse, C {att_base} + D6")
    d = ctx.d6(f"{rider.name}: parry for his horse, C {def_base} + D6" if parry else f"{rider.name}'s horse: bare D6")
    att_total = att_base + sum(v for _, v in att_mods) + a
    def_total = def_base + sum(v for _, v in def_mods) + d
    spend(attacker, "C", costs.attack)
    if parry:
        spend(rider, "C", costs.parry)
    def_text = (
        f"rider's parry C {def_base}{mods_text(def_mods)} + D6 {d} = {def_total}" if parry else f"the horse's D6 {d}"
    )
    head = f"{attacker.name} attacks {rider.name}'s horse: C {att_base}{mods_text(att_mods)} + D6 {a} = {att_total} vs {def_text}"
    data = {
        "attacker": attacker.name,
        "defender": rider.name,
        "choice": choice,
        "attack": att_total,
        "defence": def_total,
        "rolls": [a, d],
        **_sides(att_base, att_mods, a, def_base, def_mods, d),
    }
    if att_total < def_total:
        ctx.say("melee", f"{head}: the horse is not touched.", **data, result="parried")
        return
    if att_total == def_total:
        ctx.touch(attacker.name, rider.name, locked=True)
        ctx.say("melee", f"{head}: a draw.", **data, result="draw")
        return
    reason = f"{attacker.name} → {rider.name}'s horse"
    location, where, located = location_roll(ctx, rider, reason)
    die = ctx.d6(f"{reason}: wound D6")
    wm = ctx.t.wound_modifiers
    strength = current(ctx.t, attacker, "S")
    band = next(b for b in wm.strength if b.upto is None or strength <= b.upto)
    mods = [(f"strength {strength}", band.mod), ("horse hit by man", wm.horse_hit_by_man)]
    if not atk.weapon:
        mods.append(("no weapon", wm.no_weapon))
    mods = [m for m in mods if m[1]]
    diff = att_total - def_total
    score = diff + die + sum(v for _, v in mods)
    severity = severity_for(ctx, location, score)
    ctx.say(
        "melee",
        f"{head}: hit · {where} · {severity_text(score, severity, 'score', mods, f'{diff} + D6 {die}')}.",
        **data,
        result="wound",
        location=location,
        severity=severity,
        **wound_numbers(located, [die], mods, score),
        margin=diff,
    )
    horse_wound(ctx, rider, location, severity, attacker.name)


# --- killing unconscious men (16) ---------------------------------------------------------------------


def kill(ctx: Ctx, p: KillOptions) -> None:
    if not ctx.t.options.killing_unconscious:
        raise RuleError("Killing unconscious men is not allowed in this campaign.")
    killer = actor(ctx, p.killer)
    require_standing(ctx, killer, "strike")
    victim = ctx.enemy(killer, p.victim, "kill")
    if not (victim.unconscious or victim.knocked_out):
        raise RuleError(f"{victim.name} is conscious: attack him instead.")
    contact = ctx.contact(killer.name, victim.name)
    if contact is None or contact.since >= ctx.bound:
        raise RuleError(f"{killer.name} must have been in base contact with {victim.name} since the last bound.")
    if killer.moved_bound == ctx.bound or killer.attacked_bound == ctx.bound or killer.shot_bound == ctx.bound:
        raise RuleError(f"The killing stroke takes {killer.name}'s move and attack, and he has used them this bound.")
    if killer.fought_bound == ctx.bound:
        raise RuleError(
            f"{killer.name} was attacked this bound and lost his chance of a killing stroke: attack {victim.name} normally."
        )
    killer.attacked_bound = killer.murdered_bound = killer.busy_bound = ctx.bound
    ctx.say(
        "attack",
        f"{killer.name} kills the helpless {victim.name}; he cannot turn to face anyone else this bound.",
        attacker=killer.name,
        defender=victim.name,
    )
    kill_outright(ctx, victim, f"killed where he lay by {killer.name}", killer.name)


def defend(ctx: Ctx, p: DefendOptions) -> None:
    """The answer to a pending decision (a button, or /decide in the terminal)."""
    pending = ctx.state.pending
    if pending is None:
        raise RuleError("Nothing is waiting for a decision.")
    if p.pending is not None and p.pending != number_of(pending):
        raise RuleError("That decision has already been made.")
    if not ctx.by_gm and (ctx.side or "").casefold() != pending.decider.casefold():
        raise RuleError(f"This choice belongs to the {pending.decider}.")
    choice = (p.choice or "").casefold().replace(" ", "_")
    values = values_of(pending)
    if choice not in values:
        raise RuleError(f"Choose one of {', '.join(values)}.")
    ctx.state.pending = None
    figure = figure_of(pending)
    ctx.say(
        "choice",
        f"The {pending.decider} choose: {LABELS.get(choice, choice)} for {figure}.",
        decider=pending.decider,
        figure=figure,
        choice=choice,
    )
    if kind_of(pending) == SHOT_DODGE:
        resume_dodge(ctx, shot_of(pending), choice)
        return
    resolve(ctx, attack_of(pending), choice)
