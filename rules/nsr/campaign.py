"""Between battles: what each basic unit carries into its roster when a battle ends.

NSR 1.9 is silent here; the readings are ``campaign:`` in tables.yaml. A roster entry is a whole
unit, so the figures it lost (killed, captured, routed, and the wounded if the campaign says so)
come off its make-up: ``figures`` and, for a leader or key figure, ``officers``, ``ncos``,
``standard`` and the rest. The stats are written out in full, as ``recruit`` writes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.core import Aftermath, FigureSpec
from rules.nsr.charts import NsrTables
from rules.nsr.forces import Forces
from rules.nsr.state import Figure, NsrState, Unit
from rules.words import joined, plural

#: The stat a figure of each role counts in (rank and file count only in ``figures``).
ROLE_STAT = {
    "commander": "officers",
    "officer": "officers",
    "nco": "ncos",
    "standard": "standard",
    "musician": "musician",
    "sapper": "sappers",
    "key": "key",
}
#: Losses a player wants named on the card, highest first: (role, one, many).
NAMED_LOSSES = (
    ("commander", "the Commander-in-Chief", "the Commander-in-Chief"),
    ("officer", "the officer", "officers"),
    ("nco", "the NCO", "NCOs"),
    ("standard", "the standard", "standards"),
)
#: Why a figure left, in the order the note lists them.
REASONS = ("killed", "captured", "routed", "invalided")


@dataclass(frozen=True)
class Losses:
    """A unit's figures sorted by what the battle did to them."""

    left: dict[str, list[Figure]]  # reason -> figures that leave the unit
    recovering: list[Figure]  # wounded figures that rejoin

    @property
    def lost(self) -> list[Figure]:
        return [f for reason in REASONS for f in self.left.get(reason, [])]


def losses(t: NsrTables, unit: Unit) -> Losses:
    """Which of ``unit``'s figures leave it, and why."""
    left: dict[str, list[Figure]] = {}
    recovering: list[Figure] = []
    for f in unit.figures:
        reason = _reason(t, f)
        if reason is not None:
            left.setdefault(reason, []).append(f)
        elif f.status == "wounded":
            recovering.append(f)
    return Losses(left, recovering)


def _reason(t: NsrTables, f: Figure) -> str | None:
    if f.status in ("killed", "captured"):
        return f.status
    if f.status == "wounded":
        wounded = t.campaign.wounded
        return "invalided" if wounded == "leave" or (wounded == "heavy_leave" and f.wound == "heavy") else None
    if f.routed and t.campaign.routed == "leave":
        return "routed"
    return None


def aftermath(t: NsrTables, forces: Forces, state: NsrState, specs: Sequence[FigureSpec]) -> list[Aftermath]:
    """One :class:`Aftermath` per unit of the battle: its losses taken off its roster stats."""
    by_name = {" ".join(str(s.name).split()).casefold(): s for s in specs}
    results = []
    for unit in state.units:
        spec = by_name.get(unit.name.casefold())
        name = spec.name if spec is not None else unit.name
        stats = forces.read_stats(unit.name, unit.troop, spec.stats) if spec is not None else _stats_of(forces, unit)
        results.append(_unit_aftermath(t, forces, unit, name, stats))
    return results


def _stats_of(forces: Forces, unit: Unit) -> dict[str, Any]:
    """The make-up of a unit no roster entry was handed for (its figures as the battle began)."""
    stats = forces.read_stats(unit.name, unit.troop, {})
    for key in set(ROLE_STAT.values()):
        stats[key] = 0
    for f in unit.figures:
        if f.role in ROLE_STAT:
            stats[ROLE_STAT[f.role]] += 1
    stats.update(
        figures=len(unit.figures),
        weapon=unit.weapon,
        melee=unit.melee,
        formation=unit.formation,
        british=unit.british,
        pistols=unit.pistols,
        attached=unit.attached,
    )
    return stats


def _unit_aftermath(t: NsrTables, forces: Forces, unit: Unit, name: str, stats: Mapping[str, Any]) -> Aftermath:
    found = losses(t, unit)
    lost = found.lost
    s = dict(stats)
    for f in lost:
        if f.role in ROLE_STAT:
            s[ROLE_STAT[f.role]] = max(0, s[ROLE_STAT[f.role]] - 1)
    s["figures"] = max(0, s["figures"] - len(lost))
    if s["officers"] < 1:
        s["commander"] = False
    told = _told(found, s["figures"])
    if s["figures"] == 0:
        return Aftermath(name, unit.side, "dead", f"wiped out: {_counted(found)}")
    if unit.troop == "artillery" and s["figures"] - s["officers"] - s["ncos"] < 1:
        return Aftermath(name, unit.side, "dead", f"{told}; no gunner left to serve the gun: disbanded")
    if s["figures"] < t.campaign.disband_below:
        return Aftermath(name, unit.side, "dead", f"{told}; too few to fight on: disbanded")
    if unit.gun_destroyed:
        if t.campaign.destroyed_gun == "disband":
            return Aftermath(name, unit.side, "dead", f"{told}; gun destroyed: disbanded")
        told += "; gun destroyed, a new one for the next battle"
    return Aftermath(name, unit.side, "active", told, stats=forces.written(unit.troop, s, fill=True))


def _counted(found: Losses) -> str:
    """``all 12 figures lost (10 killed, 2 captured)``."""
    lost = found.lost
    whole = "its only figure" if len(lost) == 1 else f"all {len(lost)} figures"
    return f"{whole} lost ({_reasons(found)})"


def _reasons(found: Losses) -> str:
    return ", ".join(f"{len(found.left[r])} {r}" for r in REASONS if found.left.get(r))


def _told(found: Losses, remain: int) -> str:
    """The history note: what the unit lost, who among them, what is left."""
    lost = found.lost
    recovering = f", {len(found.recovering)} wounded recovering" if found.recovering else ""
    if not lost:
        return f"no losses; {plural(remain, 'figure')}{recovering}"
    named = []
    for role, one, many in NAMED_LOSSES:
        count = sum(1 for f in lost if f.role == role)
        if count:
            named.append(one if count == 1 else f"{count} {many}")
    among = f", among them {joined(named)}" if named else ""
    return f"lost {plural(len(lost), 'figure')} ({_reasons(found)}){among}; {remain} {'remains' if remain == 1 else 'remain'}{recovering}"
