"""Forces: a roster entry is a basic unit (kind = troop type, stats = its make-up) and its figures.

``/roster add name:"1er Ligne" kind:line stats:"figures=12 officer=yes nco=yes formation=line"``.
Every stat is optional; what is not given comes from ``unit_defaults`` in tables.yaml.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import FigureSpec, RuleError, short
from rules.nsr.charts import NsrTables, UnitDefaults
from rules.nsr.state import Commander, Figure, Unit
from rules.words import match_name

FORMATION_ALIASES = {
    "column": "march_column",
    "march": "march_column",
    "marchcolumn": "march_column",
    "march-column": "march_column",
    "open": "open_order",
    "openorder": "open_order",
    "open-order": "open_order",
    "skirmish": "open_order",
    "limber": "limbered",
    "unlimbered": "manhandled",
    "deployed": "manhandled",
    "manhandle": "manhandled",
}
YES = {"yes", "y", "true", "1", "on"}
NO = {"no", "n", "false", "0", "off"}
COUNTS = ("figures", "officers", "ncos", "sappers", "key", "standard", "musician")
FLAGS = ("commander", "british", "pistols")
TEXTS = ("weapon", "melee", "formation", "attached")
KNOWN = COUNTS + FLAGS + TEXTS + ("officer", "nco")


def formation_name(value: Any) -> str:
    text = "_".join(str(value or "").strip().casefold().split())
    return FORMATION_ALIASES.get(text, text)


def _flag(unit: str, key: str, value: Any) -> bool:
    text = str(value).strip().casefold()
    if text in YES:
        return True
    if text in NO:
        return False
    raise RuleError(f"{short(unit)}: {key} takes yes or no, not {short(str(value))}.")


def _count(unit: str, key: str, value: Any, most: int = 200) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise RuleError(f"{short(unit)}: {key} takes a whole number from 0 to {most}, not {short(str(value))}.")
    return value


class Forces:
    """Reads roster entries into checked unit specs, and specs into units of figures."""

    def __init__(self, tables: NsrTables) -> None:
        self.t = tables
        self.kind_names = {k.casefold(): k for k in tables.troop_types}
        for alias, target in tables.kind_aliases.items():
            self.kind_names.setdefault(" ".join(alias.split()).casefold(), target)

    def side(self, wanted: Any) -> str:
        side = match_name(self.t.sides, wanted)
        if side is not None:
            return side
        raise RuleError(f"There is no side called {short(str(wanted))} in NSR: use {' or '.join(self.t.sides)}.")

    def troop(self, unit: str, wanted: Any) -> str:
        troop = self.kind_names.get(" ".join(str(wanted or "").split()).casefold())
        if troop is None:
            raise RuleError(
                f"{short(unit)} is of troop type {short(str(wanted))}, which NSR does not know: "
                f"use {', '.join(self.t.troop_types)}."
            )
        return troop

    def check(self, spec: FigureSpec, fill: bool = False) -> FigureSpec:
        """The spec as kept: troop type and stats checked; with ``fill`` every default written in."""
        name = " ".join(str(spec.name).split())
        if not name:
            raise RuleError("A unit needs a name.")
        side = self.side(spec.side)
        troop = self.troop(name, spec.kind)
        stats = self.read_stats(name, troop, spec.stats)
        return FigureSpec(name=name, side=side, kind=troop, stats=self.written(troop, stats, fill))

    def read_stats(self, name: str, troop: str, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Every stat of the unit, given or default, checked against the others."""
        d = self.t.unit_defaults[troop]
        given = {str(k).strip().casefold(): v for k, v in raw.items()}
        unknown = [k for k in given if k not in KNOWN]
        if unknown:
            raise RuleError(
                f"{short(name)}: NSR units have no stat {short(unknown[0])}; "
                f"use figures, officer, nco, sappers, key, weapon, melee, formation, commander, british, pistols, attached."
            )
        stats: dict[str, Any] = {
            "figures": d.figures,
            "officers": d.officers,
            "ncos": d.ncos,
            "sappers": 0,
            "key": 0,
            "standard": d.standard,
            "musician": d.musician,
            "weapon": d.weapon,
            "melee": d.melee,
            "formation": d.formation,
            "commander": False,
            "british": False,
            "pistols": True,
            "attached": "",
        }
        for key in ("officer", "nco"):
            if key in given:
                stats[key + "s"] = 1 if _flag(name, key, given.pop(key)) else 0
        for key, value in given.items():
            if key in COUNTS:
                stats[key] = _count(name, key, value)
            elif key in FLAGS:
                stats[key] = _flag(name, key, value)
            else:
                stats[key] = " ".join(str(value).split())
        self._check_stats(name, troop, d, stats)
        return stats

    def _check_stats(self, name: str, troop: str, d: UnitDefaults, s: dict[str, Any]) -> None:
        s["weapon"] = str(s["weapon"]).casefold()
        s["melee"] = str(s["melee"]).casefold()
        s["formation"] = formation_name(s["formation"])
        if s["weapon"] not in self.t.weapons:
            raise RuleError(f"{short(name)}: the weapon must be one of {', '.join(self.t.weapons)}.")
        if (s["weapon"] == "artillery") != (troop == "artillery"):
            raise RuleError(f"{short(name)}: only an artillery unit serves a gun, and it serves nothing else.")
        if s["melee"] not in self.t.melee_weapons:
            raise RuleError(f"{short(name)}: the melee weapon must be one of {', '.join(self.t.melee_weapons)}.")
        rows = self.t.movement_dice[troop]
        if s["formation"] not in rows:
            raise RuleError(f"{short(name)}: {troop} may form {', '.join(rows)}, not {short(s['formation'])}.")
        if s["figures"] < 1:
            raise RuleError(f"{short(name)}: a unit needs at least one figure.")
        special = s["officers"] + s["ncos"] + s["sappers"] + s["key"] + s["standard"] + s["musician"]
        if special > s["figures"]:
            raise RuleError(f"{short(name)}: {s['figures']} figures cannot hold {special} leaders and key figures.")
        if troop == "artillery" and s["figures"] - s["officers"] - s["ncos"] < 1:
            raise RuleError(f"{short(name)}: a gun needs at least one gunner besides its leaders.")
        if s["commander"] and s["officers"] < 1:
            raise RuleError(f"{short(name)}: the Commander-in-Chief is an officer, and this unit has none.")
        if s["british"] and troop != "artillery":
            raise RuleError(f"{short(name)}: british=yes is for artillery (special rule 8).")
        if s["attached"] and troop != "command":
            raise RuleError(f"{short(name)}: only a command group is attached to another unit.")

    def written(self, troop: str, s: dict[str, Any], fill: bool) -> dict[str, Any]:
        """The stats as the roster keeps them: all of them with ``fill``, else only what differs."""
        d = self.t.unit_defaults[troop]
        defaults = {
            "figures": d.figures,
            "officers": d.officers,
            "ncos": d.ncos,
            "sappers": 0,
            "key": 0,
            "standard": d.standard,
            "musician": d.musician,
            "weapon": d.weapon,
            "melee": d.melee,
            "formation": d.formation,
            "commander": False,
            "british": False,
            "pistols": True,
            "attached": "",
        }
        out: dict[str, Any] = {}
        for key in (
            "figures",
            "officers",
            "ncos",
            "sappers",
            "key",
            "standard",
            "musician",
            "weapon",
            "melee",
            "formation",
            "commander",
            "british",
            "pistols",
            "attached",
        ):
            value = s[key]
            essential = key in ("figures", "officers", "ncos", "weapon", "melee", "formation")
            if value == defaults[key] and not (fill and essential):
                continue
            if key in ("officers", "ncos") and value in (0, 1):
                out[key[:-1]] = "yes" if value else "no"
            elif isinstance(value, bool):
                out[key] = "yes" if value else "no"
            else:
                out[key] = value
        return out

    # --- building the units of a battle

    def unit(self, spec: FigureSpec) -> Unit:
        s = self.read_stats(spec.name, spec.kind, spec.stats)
        d = self.t.unit_defaults[spec.kind]
        ranks = self.t.leader_ranks
        figures: list[Figure] = []
        figures += _numbered("Officer", "officer", s["officers"], rank=ranks["officer"])
        figures += _numbered("NCO", "nco", s["ncos"], rank=ranks["nco"])
        figures += _numbered("Standard", "standard", s["standard"], key=True)
        figures += _numbered("Musician", "musician", s["musician"], key=True)
        figures += _numbered("Sapper", "sapper", s["sappers"], key=True, always_number=True)
        figures += _numbered("Key figure", "key", s["key"], key=True, always_number=True)
        rest = s["figures"] - len(figures)
        figures += _numbered(
            d.rank_and_file.title(), d.rank_and_file, rest, key=d.rank_and_file_key, always_number=True
        )
        return Unit(
            name=spec.name,
            side=spec.side,
            troop=spec.kind,
            formation=s["formation"],
            weapon=s["weapon"],
            melee=s["melee"],
            original=len(figures),
            figures=figures,
            british=s["british"],
            pistols=s["pistols"],
            attached=s["attached"],
        )

    def commanders(self, specs: list[FigureSpec], units: list[Unit]) -> dict[str, Commander]:
        """The Commander-in-Chief of each side: the unit marked commander=yes, else the first command
        group's officer, else the first officer on the roster (RESOLUTION of this engine)."""
        found: dict[str, Commander] = {}
        for side in self.t.sides:
            marked = [
                u
                for s, u in zip(specs, units, strict=True)
                if u.side == side and self.read_stats(s.name, s.kind, s.stats)["commander"]
            ]
            if len(marked) > 1:
                raise RuleError(f"{side} has {len(marked)} units marked commander=yes: mark only one.")
            with_officer = [u for u in units if u.side == side and any(f.role == "officer" for f in u.figures)]
            groups = [u for u in with_officer if u.troop == "command"]
            candidates = marked or groups or with_officer
            if not candidates:
                continue
            chosen = candidates[0]
            officer = next(f for f in chosen.figures if f.role == "officer")
            officer.role, officer.rank = "commander", self.t.leader_ranks["commander"]
            officer.name = "Commander-in-Chief"
            found[side] = Commander(unit=chosen.name, figure=officer.name)
        return found


def _numbered(
    title: str, role: str, count: int, *, rank: int = 0, key: bool = False, always_number: bool = False
) -> list[Figure]:
    if count <= 0:
        return []
    if count == 1 and not always_number:
        return [Figure(name=title, role=role, rank=rank, key=key)]
    return [Figure(name=f"{title} {i}", role=role, rank=rank, key=key) for i in range(1, count + 1)]
