"""Reading a roster entry: its profile (or the player's own stats), weapons and armour.

A roster entry is ``kind`` (Knight, Man at Arms, Viking Warrior, Viking Hero, or ``custom``) and
``stats`` as ``key=value`` pairs: ``speed= bravery= shoot= fight=`` (a custom figure gives all
four), ``weapons=sword+dagger`` and ``armour=mailshirt+small-shield`` (``+`` or ``/`` between
items, ``none`` for nothing; names match ignoring capitals, spaces and punctuation).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rules.core import FigureSpec, RuleError, short
from rules.medieval.data import STATS, MedievalTables, fold
from rules.words import joined

_SPLIT = re.compile(r"[+/,;]")
KEYS = {
    "speed": "speed",
    "move": "speed",
    "movement": "speed",
    "bravery": "bravery",
    "nerve": "bravery",
    "shoot": "shoot",
    "shooting": "shoot",
    "fight": "fight",
    "fighting": "fight",
    "weapon": "weapons",
    "weapons": "weapons",
    "armour": "armour",
    "armor": "armour",
    "health": "health",
}
NOTHING = {"none", "nothing", "no", ""}
EXAMPLE = "speed=6 bravery=4 shoot=3 fight=3 weapons=sword+dagger armour=leather+small-shield"


def kind_names(t: MedievalTables) -> list[str]:
    return [*t.profiles, t.custom_kind]


def match_kind(t: MedievalTables, name: str, wanted: Any) -> str:
    text = " ".join(str(wanted or "").split())
    if not text:
        raise RuleError(f"Give {short(name)} a kind: {joined(kind_names(t), 'or')}.")
    for kind in kind_names(t):
        if fold(kind) == fold(text):
            return kind
    raise RuleError(f"{short(text)} is not a kind of figure here: use {joined(kind_names(t), 'or')}.")


def match_name(table: Mapping[str, Any], wanted: str) -> str | None:
    folded = fold(wanted)
    return next((name for name in table if fold(name) == folded), None)


def check_kit(t: MedievalTables, spec: FigureSpec, kind: str) -> dict[str, Any]:
    """The stats a roster keeps for the figure, or a RuleError naming what is wrong."""
    given = _keys(spec)
    carried = fold(str(given.pop("health", "full")))
    if carried not in ("full", "light"):
        raise RuleError(
            f"{short(spec.name)} starts a battle at full health, or light after a serious wound: "
            "leave health out of its stats."
        )
    out: dict[str, Any] = {}
    if carried == "light":
        out["health"] = "light"  # a serious wound healed between battles, no further (A-MED-15)
    if kind == t.custom_kind:
        for stat in STATS:
            out[stat] = _custom_stat(t, spec.name, stat, given.get(stat))
        default_weapons, default_armour = t.custom_kit.weapons, t.custom_kit.armour
    else:
        profile = t.profiles[kind]
        for stat in STATS:
            if stat in given and given[stat] != getattr(profile, stat):
                raise RuleError(
                    f"{short(spec.name)} is a {kind}, whose {stat} is {getattr(profile, stat)}: "
                    f"to give a figure its own stats use kind:{t.custom_kind}."
                )
        default_weapons, default_armour = profile.weapons, profile.armour
    weapons = _weapons(t, spec.name, given["weapons"]) if "weapons" in given else list(default_weapons)
    armour = _armour(t, spec.name, given["armour"]) if "armour" in given else list(default_armour)
    out["weapons"] = "+".join(weapons) or "none"
    out["armour"] = "+".join(armour) or "none"
    return out


def kit_lists(value: Any) -> list[str]:
    """A kept ``weapons``/``armour`` stat as a list of names ("none" is an empty list)."""
    text = str(value or "")
    return [] if fold(text) in NOTHING or not text else [p.strip() for p in text.split("+")]


def _keys(spec: FigureSpec) -> dict[str, Any]:
    given: dict[str, Any] = {}
    for key, value in dict(spec.stats or {}).items():
        stat = KEYS.get(fold(str(key)))
        if stat is None:
            known = "speed, bravery, shoot, fight, weapons, armour"
            raise RuleError(f"{short(spec.name)} has a stat {short(str(key))} this game does not use: use {known}.")
        if stat in given:
            raise RuleError(f"{short(spec.name)}'s {stat} is given twice.")
        given[stat] = value
    return given


def _custom_stat(t: MedievalTables, name: str, stat: str, value: Any) -> int:
    limit = t.custom_limits[stat]
    if value is None:
        raise RuleError(
            f'{short(name)} is a {t.custom_kind} figure: give its {stat} in its stats, like stats:"{EXAMPLE}".'
        )
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"{short(name)}'s {stat} must be a whole number, not {short(str(value))}.")
    if not limit.low <= value <= limit.high:
        raise RuleError(f"{short(name)}'s {stat} must be from {limit.low} to {limit.high}, not {value}.")
    return value


def _items(value: Any) -> list[str]:
    parts = [str(v) for v in value] if isinstance(value, (list, tuple)) else _SPLIT.split(str(value))
    parts = [" ".join(p.split()) for p in parts if p.strip()]
    if len(parts) == 1 and fold(parts[0]) in NOTHING:
        return []
    return parts


def _weapons(t: MedievalTables, name: str, value: Any) -> list[str]:
    found = []
    for part in _items(value):
        weapon = match_name(t.weapons, part)
        if weapon is None:
            known = joined(list(t.weapons), "or")
            raise RuleError(f"{short(name)} carries {short(part)}, which is not a weapon here: use {known}.")
        found.append(weapon)
    return found


def _armour(t: MedievalTables, name: str, value: Any) -> list[str]:
    found: list[str] = []
    for part in _items(value):
        piece = match_name(t.armour, part)
        if piece is None:
            raise RuleError(
                f"{short(name)} wears {short(part)}, which is not armour here: use {joined(list(t.armour), 'or')}."
            )
        slot = t.armour[piece].slot
        clash = next((a for a in found if t.armour[a].slot == slot), None)
        if clash is not None:
            raise RuleError(f"{short(name)} has {clash} and {piece}, both {slot} armour: wear one at most.")
        found.append(piece)
    return found
