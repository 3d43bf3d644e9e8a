"""The bound (1): each character's turn in the order, then pass-outs, recoveries and reloading."""

from __future__ import annotations

from rules.core import BoundPayload, RuleError, VictoryPayload
from rules.sharpe import mounts
from rules.sharpe.common import Ctx
from rules.sharpe.order import roll_order
from rules.sharpe.state import Character, Firearm, Gun
from rules.sharpe.wounds import carried_off, morale_triggers, standing
from rules.words import blank, plural

#: A guard for a table where nobody can act (every man unconscious): bounds pass at most this often.
EMPTY_BOUNDS_MAX = 50


def cannot_act(ctx: Ctx, ch: Character) -> str:
    """Why ``ch`` gets no turn this bound ("" when he does)."""
    if ch.out:
        return "out of action"
    if ch.unconscious:
        return "unconscious"
    if ch.knocked_out:
        return "knocked out"
    if ch.wounded_bound == ctx.bound:
        return "wounded this bound"
    if ch.suppressed_bound == ctx.bound:
        return "suppressed this bound"
    if ch.halted_bound == ctx.bound:
        return "halted by a distraction this bound"
    return ""


def actor(ctx: Ctx, wanted: object) -> Character:
    """The character acting: the one whose turn it is (the game master may name any other)."""
    state = ctx.state
    if blank(wanted):
        if state.active is None:
            raise RuleError("Nobody is to act now.")
        return ctx.get(state.active)
    ch = ctx.character(wanted)
    if ch.name != state.active and not ctx.by_gm:
        raise RuleError(f"It is {state.active}'s turn, not {ch.name}'s: characters act one at a time in the order.")
    return ch


def require_able(ctx: Ctx, ch: Character, doing: str) -> None:
    why = cannot_act(ctx, ch)
    if why:
        raise RuleError(f"{ch.name} cannot {doing}: he is {why}.")


def require_unbroken(ctx: Ctx, ch: Character, act: str, more: str = "") -> None:
    """A-SHARPE-16: a broken side may only defend and withdraw (``broken_may`` says what else);
    ``more`` names what was refused (", not move into contact with Dubois")."""
    if ch.side in ctx.state.broken and act not in ctx.t.broken_may:
        raise RuleError(f"The {ch.side} are broken: {ch.name} may only defend and withdraw{more}.")


def require_standing(ctx: Ctx, ch: Character, doing: str) -> None:
    require_able(ctx, ch, doing)
    if ch.down:
        raise RuleError(f"{ch.name} is on the ground and cannot {doing}: get him up with /sharpe rise.")
    if ch.rose_bound == ctx.bound:
        raise RuleError(f"{ch.name} got up this bound: he cannot move or attack until the next.")


def advance(ctx: Ctx) -> None:
    """Hand the turn to the next character in the order who can act; end bounds as they run out."""
    state = ctx.state
    for _ in range(EMPTY_BOUNDS_MAX):
        skipped: list[str] = []
        for name in state.order:
            if name in state.acted:
                continue
            ch = ctx.get(name)
            why = cannot_act(ctx, ch)
            if why:
                state.acted.append(name)
                if not ch.out:
                    skipped.append(f"{name} ({why})")
                continue
            if skipped:
                ctx.say("skip", f"No turn for {', '.join(skipped)}.", skipped=skipped)
            state.active = name
            ctx.tell(
                BoundPayload(state.bound),
                f"Bound {state.bound} · {name} ({ch.side}) to act.",
                kind="turn",
                active=name,
                side=ch.side,
            )
            return
        if skipped:
            ctx.say("skip", f"No turn for {', '.join(skipped)}.", skipped=skipped)
        state.active = None
        end_bound(ctx)
        if check_victory(ctx):
            return
        start_bound(ctx)
    state.over, state.ended_how = True, "no character could act for many bounds"
    ctx.tell(VictoryPayload(None), "Nobody on the table can act: the game ends in a draw.")


def end_bound(ctx: Ctx) -> None:
    """Steps 6-8: jamming is a no-op (A-SHARPE-15); pass-outs and recoveries; loading counts."""
    state = ctx.state
    ctx.tell(BoundPayload(state.bound), f"End of bound {state.bound}.")
    for name in list(state.order):
        ch = ctx.get(name)
        if not ch.out and ch.passout_rolls and not ch.knocked_out:
            _pass_out_or_recover(ctx, ch)
    for ch in state.characters:
        if ch.knocked_out and ch.knocked_out_bound < state.bound and not ch.out:
            ch.knocked_out -= 1
            if ch.knocked_out == 0:
                ctx.say(
                    "recover",
                    f"{ch.name} comes round; he is still down and may try to rise next bound.",
                    figure=ch.name,
                )
    for ch in state.characters:
        _reload(ctx, ch)
    for gun in state.guns:
        _load_gun(ctx, gun)
    _horses_run_on(ctx)
    morale_triggers(ctx)


def _horses_run_on(ctx: Ctx) -> None:
    """A-SHARPE-42: on the map, at the bound's end, a runaway whose rider could not try to control it
    runs on straight, and so does the horse of a rider wounded this bound, at its last pace."""
    for rider in mounts.runaways_left(ctx):
        ran = mounts.run_away(ctx, rider, 0.0)
        if ran is not None and ran.gone:
            carried_off(ctx, rider)


def _pass_out_or_recover(ctx: Ctx, ch: Character) -> None:
    effects = ctx.t.effects
    if ch.unconscious:
        face = ctx.d6(f"{ch.name}: comes round? D6, {'/'.join(map(str, effects.recover_on))} recovers")
        if face in effects.recover_on:
            ch.unconscious = False
            ctx.say(
                "recover",
                f"{ch.name} rolls {face}: comes round, and may try to rise next bound.",
                figure=ch.name,
                roll=face,
            )
        else:
            ctx.say("recover", f"{ch.name} rolls {face}: still unconscious.", figure=ch.name, roll=face)
        return
    face = ctx.d6(f"{ch.name}: passes out? D6, {'/'.join(map(str, effects.passout_on))} passes out")
    if face in effects.passout_on:
        ch.unconscious = True
        ch.down = "knocked_down"
        ctx.say("passout", f"{ch.name} rolls {face}: passes out from his wound.", figure=ch.name, roll=face)
    else:
        ctx.say("passout", f"{ch.name} rolls {face}: stays conscious.", figure=ch.name, roll=face)


def _clean(ctx: Ctx, ch: Character) -> bool:
    """A bound counts towards reloading unless he ran, jumped, fought, shot, was hit or suppressed."""
    return ch.busy_bound != ctx.bound and not ch.out and not ch.unconscious and not ch.knocked_out


def waiting_firearm(ch: Character) -> Firearm | None:
    """A-SHARPE-14: the firearm a man's clean bounds load now: one at a time, in the order fired."""
    waiting = sorted((f for f in ch.firearms if not f.loaded), key=lambda f: f.fired_bound)
    return waiting[0] if waiting else None


def loading_what(ctx: Ctx, ch: Character) -> str:
    """What ``ch`` loads this bound (``load``): a gun's name, or his own firearm."""
    firearm = waiting_firearm(ch)
    if ch.loading_gun or firearm is None:
        return ch.loading_gun or "a gun"
    return f"his {ctx.t.weapons[firearm.weapon].label}"


def _reload(ctx: Ctx, ch: Character) -> None:
    """A-SHARPE-14: one firearm at a time, in the order fired; the firing bound itself does not count."""
    firearm = waiting_firearm(ch)
    if firearm is None:
        return
    if firearm.fired_bound >= ctx.bound or firearm.picked_up_bound >= ctx.bound:
        return
    label = ctx.t.weapons[firearm.weapon].label
    if not _clean(ctx, ch):
        if not ch.out:
            ctx.say(
                "reload",
                f"{ch.name} was interrupted: this bound does not count towards loading his {label}.",
                figure=ch.name,
            )
        return
    firearm.reload_left = max(0, firearm.reload_left - 1)
    if firearm.reload_left == 0:
        firearm.loaded = True
        done = "re-primed" if firearm.repriming else "loaded"
        firearm.repriming = False
        ctx.say("reload", f"{ch.name}'s {label} is {done}.", figure=ch.name, weapon=firearm.weapon)


def _loader_ok(ctx: Ctx, ch: Character) -> bool:
    """A man-bound counts unless the loader was hit, suppressed or put down while loading."""
    return (
        not ch.out
        and not ch.unconscious
        and not ch.knocked_out
        and ch.wounded_bound != ctx.bound
        and ch.suppressed_bound != ctx.bound
    )


def _load_gun(ctx: Ctx, gun: Gun) -> None:
    if gun.loaded:
        return
    if gun.reprime_left:
        if gun.fired_bound < ctx.bound:
            gun.reprime_left -= 1
            if gun.reprime_left == 0:
                gun.loaded = True
                ctx.say("reload", f"{gun.name} is re-primed.", gun=gun.name)
        return
    if gun.loaders_bound != ctx.bound or not gun.loaders:
        return
    weapon = ctx.t.weapons[gun.weapon]
    counted = [n for n in gun.loaders if _loader_ok(ctx, ctx.get(n))]
    gun.man_bounds += len(counted)
    left = max(0, weapon.reload_man_bounds - gun.man_bounds)
    if left == 0:
        gun.loaded, gun.man_bounds = True, 0
        ctx.say("reload", f"{gun.name} is loaded.", gun=gun.name)
    else:
        ctx.say(
            "reload",
            f"{gun.name}: {plural(len(counted), 'man-bound')} of loading this bound; {left} to go.",
            gun=gun.name,
            left=left,
        )


def start_bound(ctx: Ctx) -> None:
    state = ctx.state
    state.bound += 1
    state.acted = []
    for ch in state.characters:
        ch.spent = {"I": 0, "D": 0, "S": 0, "C": 0}
        if ch.horse is not None:
            ch.horse.start_pace = ch.horse.pace
    ctx.tell(BoundPayload(state.bound), f"Bound {state.bound} begins: ability points are restored.")
    mounts.loose_horses_run(ctx)
    if ctx.t.options.reroll_order_every_bound:
        rolling = [ctx.get(n) for n in state.order if not ctx.get(n).out]
        new = roll_order(ctx, rolling, heading=f"Order of movement for bound {state.bound}")
        state.order = new + [n for n in state.order if n not in new]


def check_victory(ctx: Ctx) -> bool:
    """A side with nobody left standing has lost (options.victory_counts_unconscious)."""
    state = ctx.state
    if state.over:
        return True
    left = {}
    for side in ctx.t.sides:
        mine = [c for c in state.characters if c.side == side]
        if ctx.t.options.victory_counts_unconscious:
            left[side] = sum(1 for c in mine if standing(c))
        else:
            left[side] = sum(1 for c in mine if not c.out)
    beaten = [side for side, count in left.items() if count == 0]
    if not beaten:
        return False
    state.over, state.active, state.pending = True, None, None
    if len(beaten) == 2:
        state.winner, state.ended_how = None, "both sides are down"
        ctx.tell(VictoryPayload(None), "Neither side has a man left standing: the game is a draw.")
        return True
    loser = beaten[0]
    state.winner = next(s for s in ctx.t.sides if s != loser)
    state.ended_how = f"the {loser} have nobody left standing"
    ctx.tell(VictoryPayload(state.winner, loser), f"The {state.winner} win: the {loser} have nobody left standing.")
    return True
