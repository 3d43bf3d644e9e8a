"""Characters: kinds and rosters, abilities after wounds and spent points, action checks (2.2, 5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core import DiceSource, Event, FigureSpec, RuleError, modifier_data, short
from rules.sharpe.common import Ctx, mods_text
from rules.sharpe.schema import SharpeTables
from rules.sharpe.state import Character, Firearm, Horse
from rules.words import flag, fold, match_name

STAT_KEYS = {
    "i": "I",
    "initiative": "I",
    "d": "D",
    "dexterity": "D",
    "s": "S",
    "strength": "S",
    "c": "C",
    "close": "C",
    "close_combat": "C",
    "combat": "C",
    "f": "F",
    "firing": "F",
    "firing_skill": "F",
    "weapons": "weapons",
    "weapon": "weapons",
    "horse": "horse",
    "mounted": "horse",
}


class Roster:
    """Reads and completes a roster entry: kind, side, stats, weapons, horse."""

    def __init__(self, t: SharpeTables) -> None:
        self.t = t
        self.kind_names: dict[str, str] = {}
        for key, kind in t.kinds.items():
            for alias in (key, kind.label, *kind.aliases):
                self.kind_names.setdefault(fold(alias), key)
        self.weapon_names = {fold(key): key for key in t.weapons}
        self.weapon_names.update({fold(w.label): key for key, w in t.weapons.items()})
        self.weapon_names.setdefault("rifle", "baker_rifle")
        self.weapon_names.setdefault("french carbine", "carbine")

    def side(self, wanted: Any) -> str:
        side = match_name(self.t.sides, wanted)
        if side is not None:
            return side
        raise RuleError(f"There is no side called {short(str(wanted))} in Sharpe: use {' or '.join(self.t.sides)}.")

    def kind(self, name: str, wanted: Any) -> str:
        kind = self.kind_names.get(fold(wanted or ""))
        if kind is None:
            known = ", ".join(self.t.kinds)
            raise RuleError(
                f"{short(name)} is a {short(str(wanted or ''))}, which Sharpe does not know: use one of {known}."
            )
        return kind

    def weapon(self, name: str, wanted: str) -> str:
        weapon = self.weapon_names.get(fold(wanted))
        if weapon is None:
            known = ", ".join(self.t.weapons)
            raise RuleError(f"{short(name)} carries {short(wanted)}, which Sharpe does not know: use {known}.")
        return weapon

    def check(self, spec: FigureSpec) -> FigureSpec:
        name = " ".join(str(spec.name).split())
        if not name:
            raise RuleError("A figure needs a name.")
        side = self.side(spec.side)
        kind = self.kind(name, spec.kind)
        stats = self._stats(name, kind, spec.stats or {})
        return FigureSpec(name=name, side=side, kind=kind, stats=stats)

    def _stats(self, name: str, kind: str, given: Mapping[str, Any]) -> dict[str, Any]:
        piece = self.t.kinds[kind].piece
        stats: dict[str, Any] = {}
        for raw_key, value in given.items():
            key = STAT_KEYS.get(str(raw_key).strip().casefold())
            if key is None:
                raise RuleError(
                    f"{short(name)} has a stat {short(str(raw_key))}, which Sharpe does not use: give I, D, S, C, F, weapons or horse."
                )
            if piece and key != "F":
                raise RuleError(f"{short(name)} is an artillery piece: it has only a firing skill F.")
            if key in stats:
                raise RuleError(f"{short(name)} has {key} given twice.")
            stats[key] = self._stat(name, key, value)
        return {k: stats[k] for k in ("I", "D", "S", "C", "F", "weapons", "horse") if k in stats}

    def _stat(self, name: str, key: str, value: Any) -> Any:
        if key == "weapons":
            names = [self.weapon(name, w) for w in str(value).split("+") if w.strip()]
            if not names:
                raise RuleError(f"Give {short(name)}'s weapons as names joined by +, like musket+bayonet.")
            if any(self.t.weapons[w].piece for w in names):
                raise RuleError(f"{short(name)} cannot carry an artillery piece: add the gun as a figure of kind gun.")
            return "+".join(dict.fromkeys(names))
        if key == "horse":
            message = f"Give {short(name)}'s horse as yes or no."
            if value is None:
                raise RuleError(message)
            return "yes" if flag(value, message) else "no"
        low, high = self.t.given_firing_range if key == "F" else self.t.given_ability_range
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RuleError(f"{short(name)}'s {key} must be a whole number from {low} to {high}.")
        return value

    def complete(self, spec: FigureSpec, dice: DiceSource) -> tuple[FigureSpec, list[Event]]:
        """Roll what the rules roll and was not given: I, D, S, C (1D6 each), then F by kind."""
        kind = self.t.kinds[spec.kind]
        stats = dict(spec.stats)
        rolled: list[str] = []
        if not kind.piece:
            for ability in self.t.abilities:
                if ability not in stats:
                    stats[ability] = dice.roll(6, f"{spec.name}: {ability} (1D6)")
                    rolled.append(f"{ability} {stats[ability]}")
        if "F" not in stats:
            if kind.firing_die:
                die = dice.roll(6, f"{spec.name}: firing skill (D6 + {kind.firing_base})")
                stats["F"] = die + kind.firing_base
                rolled.append(f"F {kind.firing_base}+{die} = {stats['F']}")
            else:
                stats["F"] = kind.firing_base
        if kind.piece:
            stats["F"] = min(stats["F"], self.t.gun_firing_max)
        order: dict[str, Any] = {k: stats[k] for k in ("I", "D", "S", "C", "F", "weapons", "horse") if k in stats}
        events = []
        if rolled:
            text = f"{spec.name} ({kind.label}) rolls " + ", ".join(rolled) + "."
            events.append(Event("recruit", text, {"figure": spec.name, "stats": order}))
        return FigureSpec(spec.name, spec.side, spec.kind, order), events

    def character(self, spec: FigureSpec) -> Character:
        kind = self.t.kinds[spec.kind]
        stats = spec.stats
        weapons = str(stats["weapons"]).split("+") if "weapons" in stats else list(kind.weapons)
        horse = stats.get("horse", "yes" if kind.horse else "no") == "yes"
        firearms = [Firearm(w) for w in weapons if self.t.weapons[w].firearm and not self.t.weapons[w].piece]
        ch = Character(
            name=spec.name,
            side=spec.side,
            kind=spec.kind,
            I=stats["I"],
            D=stats["D"],
            S=stats["S"],
            C=stats["C"],
            F=stats["F"],
            weapons=weapons,
            firearms=firearms,
            in_hand=weapons[0] if weapons else None,
            start_I=stats["I"],
        )
        if horse and self.t.options.horsemen:
            ch.mounted, ch.horse = True, Horse()
        return ch


# --- abilities -----------------------------------------------------------------------------------


def wound_counts(ch: Character) -> tuple[int, int]:
    light = sum(1 for w in ch.wounds if w.severity == "light")
    return light, len(ch.wounds) - light


def points(t: SharpeTables, ch: Character) -> int:
    light, serious = wound_counts(ch)
    return light * t.wound_points.light + serious * t.wound_points.serious


def wound_reduction(ch: Character, each_light: int | float, each_serious: int | float) -> Any:
    light, serious = wound_counts(ch)
    return light * each_light + serious * each_serious


def current(t: SharpeTables, ch: Character, ability: str) -> int:
    """I, D, S after wounds (permanent) and this bound's spent points; C after spent points only."""
    base: int = getattr(ch, ability)
    if ability in ("I", "D", "S"):
        base += wound_reduction(ch, t.check.each_light_wound, t.check.each_serious_wound)
    return max(0, base - ch.spent.get(ability, 0))


def spend(ch: Character, ability: str, amount: int) -> None:
    ch.spent[ability] = ch.spent.get(ability, 0) + amount


@dataclass(frozen=True)
class CheckResult:
    roll: int
    total: int
    target: int
    ok: bool
    text: str
    ability: str = ""
    #: The modifiers added to the roll, each (what, value).
    modifiers: tuple[tuple[str, int], ...] = ()
    #: The ability's points left after the check was paid for.
    points_left: int = 0

    def data(self) -> dict[str, Any]:
        """The numbers the check's text shows, as event data: the ability tested, the die, the
        modifiers and their sum, the total, the ability it had to reach at most (``needed``), whether
        it passed (``passed``; ``ok`` as every Sharpe test says it), and the ability's points left
        after paying."""
        return {
            "ability": self.ability,
            "roll": self.roll,
            "modifiers": modifier_data(self.modifiers),
            "modifier": self.total - self.roll,
            "total": self.total,
            "needed": self.target,
            "ok": self.ok,
            "passed": self.ok,
            "points_left": self.points_left,
        }


ABILITY_WORDS = {"I": "initiative", "D": "dexterity", "S": "strength", "C": "close combat"}


def ability_check(
    ctx: Ctx,
    ch: Character,
    ability: str,
    doing: str,
    mods: list[tuple[str, int]] | None = None,
    *,
    cost: int | None = None,
) -> CheckResult:
    """1D6; a natural 6 fails; roll + modifiers <= current ability succeeds (A-SHARPE-5); then pay."""
    mods = [m for m in (mods or []) if m[1]]
    target = current(ctx.t, ch, ability)
    roll = ctx.d6(f"{ch.name}: {doing}, D6 vs {ability} {target}")
    total = roll + sum(v for _, v in mods)
    natural = roll == ctx.t.check.automatic_failure
    ok = not natural and total <= target
    spend(ch, ability, ctx.t.check.cost if cost is None else cost)
    sums = f"{roll}{mods_text(mods)} = {total}" if mods else f"{roll}"
    verdict = "succeeds" if ok else ("fails (a 6 always fails)" if natural else "fails")
    text = f"{ch.name}: {doing}: D6 {sums} vs {ability} {target}: {verdict}"
    return CheckResult(roll, total, target, ok, text, ability, tuple(mods), current(ctx.t, ch, ability))


# --- weapons in hand -----------------------------------------------------------------------------


def arm_hurt(ch: Character, arm: str, severity: str | None = None) -> bool:
    return any(w.location == arm and (severity is None or w.severity == severity) for w in ch.wounds)


def arm_lost(ch: Character, arm: str) -> bool:
    """A serious wound, or two light ones (A-SHARPE-10), makes an arm unusable."""
    return arm_hurt(ch, arm, "serious") or sum(1 for w in ch.wounds if w.location == arm) >= 2


def usable(t: SharpeTables, ch: Character, weapon: str, *, melee: bool) -> str | None:
    """Why ``ch`` cannot use ``weapon`` now, or None."""
    if weapon not in ch.weapons:
        return (
            f"{ch.name} does not carry a {t.weapons[weapon].label}"
            if weapon in t.weapons
            else f"{ch.name} carries no {weapon}"
        )
    w = t.weapons[weapon]
    if w.hands == 2:
        if arm_lost(ch, "right_arm") or arm_lost(ch, "left_arm"):
            return f"{ch.name} cannot use a {w.label} with a useless arm"
        if melee and arm_hurt(ch, "right_arm") and arm_hurt(ch, "left_arm"):
            return f"{ch.name} cannot fight with a {w.label}: both his arms are wounded"
    elif arm_lost(ch, "right_arm") and arm_lost(ch, "left_arm"):
        return f"{ch.name} has no arm left to use a {w.label}"
    return None


def left_handed(t: SharpeTables, ch: Character, weapon: str | None, chosen: bool) -> bool:
    """A one-handed weapon in the left hand: by choice or because the right arm is useless."""
    if not weapon or t.weapons[weapon].hands != 1:
        return False
    return chosen or arm_lost(ch, "right_arm")


def melee_weapon(t: SharpeTables, ch: Character, *, attacking: bool, bound: int) -> str:
    """The close-combat weapon used when none is named ("" for bare hands)."""
    candidates = list(t.melee_preference) + ([ch.in_hand] if ch.in_hand else [])
    for weapon in candidates:
        if weapon in t.weapons and t.weapons[weapon].melee and usable(t, ch, weapon, melee=True) is None:
            if attacking and ch.picked_up.get(weapon) == bound:
                continue
            return weapon
    return ""
