"""The work on a map file that a large map makes slow, as plain functions of plain data: reading an
imported file, checking a draft by its ruleset's rules, changing it, writing it out.

A map may hold 500 areas of a couple of dozen points each (a file of up to 256 KiB): reading such a
file and holding every outline to the geometry's checks is most of a second of Python. So
:mod:`bot.app.map_checks` runs these functions in a worker process for a large map (and where it
is asked for, for the small ones, a few milliseconds). Everything goes in and comes back as data
that pickles: the ruleset's name and house rules rather than its engine, a refusal as a
:class:`Refused` rather than an exception.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.app.feature_names import feature_name_problem, read_named_map
from bot.app.replies import Refusal
from bot.app.yaml_format import FileProblems, Flow, dump, read
from bot.render.shown import shown
from rules import get_engine
from rules.battlefield import MapData, map_file, read_feature
from rules.core import DataError, Engine, RuleError, short

#: The depth of the strip each side deploys in on an empty table, in inches.
ZONE_DEPTH = 4.0


@dataclass(frozen=True)
class CheckedMap:
    """A map held to every rule of a map file, the file the campaign keeps of it, that file's
    digest (what names the draft's picture) and its JSON text (made where the map was checked, so
    that keeping a large one does not encode it again on the event loop)."""

    map: MapData
    file: dict[str, Any]
    digest: str
    text: str


@dataclass(frozen=True)
class Refused:
    """The map, or the change asked of it, is refused: ``sentence`` says why, for the player."""

    sentence: str


@dataclass(frozen=True)
class Problems:
    """Everything wrong with an imported file, each problem with its line."""

    problems: list[str]


#: A change of the draft: the engine and the draft (None: there is none yet, or it is replaced)
#: in, the new map and a sentence saying what changed out. A module's function (with
#: ``functools.partial`` for its arguments), so that it pickles; it refuses with a Refusal.
Change = Callable[[Engine[Any], MapData | None], tuple[MapData, str]]


def checked(engine: Engine[Any], new: MapData) -> CheckedMap:
    """``new`` as the campaign will keep it: written as a file and read back by the rules, as a
    draft is read every time it is used."""
    return _checked(engine.read_map(map_file(new)))


def _checked(the_map: MapData) -> CheckedMap:
    file = map_file(the_map)
    digest = hashlib.sha1(json.dumps(file, sort_keys=True).encode(), usedforsecurity=False).hexdigest()
    return CheckedMap(the_map, file, digest, json.dumps(file))


def draft_checked(ruleset: str, house_rules: Mapping[str, Any] | None, data: Any) -> CheckedMap | Refused:
    """A campaign's kept draft, checked by its rules as they are now."""
    engine = get_engine(ruleset, house_rules)
    try:
        the_map = engine.read_map(data)
    except DataError as exc:
        return Refused(
            f"The campaign's map no longer fits its rules ({sentence(exc.problems[0], end='')}): "
            "make it again with /map new or /map import."
        )
    return _checked(the_map)


def edited(
    ruleset: str, house_rules: Mapping[str, Any] | None, current: Any, change: Change
) -> tuple[CheckedMap, str] | Refused:
    """The draft ``current`` (kept data; None when there is none or it is replaced) changed by
    ``change``, and held to every rule of a map file."""
    engine = get_engine(ruleset, house_rules)
    draft = None
    if current is not None:
        found = draft_checked(ruleset, house_rules, current)
        if isinstance(found, Refused):
            return found
        draft = found.map
    try:
        new, lead = change(engine, draft)
        return checked(engine, new), lead
    except DataError as exc:
        return Refused(problem_sentence(exc))
    except RuleError as exc:
        return Refused(exc.message)


def imported(ruleset: str, house_rules: Mapping[str, Any] | None, data: bytes) -> CheckedMap | Problems | Refused:
    """A map file's bytes read and checked: every problem of the file at once."""
    engine = get_engine(ruleset, house_rules)
    try:
        doc = read(data)
        the_map = read_named_map(engine, doc.data)
    except FileProblems as exc:
        return Problems(exc.problems)
    except DataError as exc:
        return Problems(exc.problems)
    except RuleError as exc:
        return Refused(exc.message)
    try:
        return checked(engine, the_map)
    except DataError as exc:
        return Refused(problem_sentence(exc))


def exported(the_map: MapData, header: Sequence[str]) -> bytes:
    """The map as the YAML file /map export hands over: one line a feature, as the shipped maps."""
    data = map_file(the_map)
    laid_out = dict(data)
    laid_out["table"] = Flow(data["table"])
    laid_out["features"] = [Flow(f) for f in data["features"]]
    laid_out["zones"] = Flow(data["zones"])
    return dump(laid_out, header)


def sentence(text: str, *, end: str = ".") -> str:
    text = text.strip().rstrip(".")
    return (text[:1].upper() + text[1:] + end) if text else ""


def problem_sentence(exc: DataError) -> str:
    """A map's problems as the one short sentence a refusal is."""
    first = exc.problems[0] if exc.problems else "the map is not valid"
    more = len(exc.problems) - 1
    return sentence(first)[:250] + (f" ({more} more problem{'s' if more > 1 else ''}.)" if more > 0 else "")


# --- the changes of a draft -----------------------------------------------------------------------


def scenario_map(name: str, engine: Engine[Any], _current: MapData | None) -> tuple[MapData, str]:
    """A shipped map by name in place of the draft."""
    return engine.scenario(name), ""


def empty_map(width: float, height: float, engine: Engine[Any], _current: MapData | None) -> tuple[MapData, str]:
    """An empty table in place of the draft: the first side deploys along the lower edge, the
    second along the upper (a strip :data:`ZONE_DEPTH` inches deep), any further sides along the
    left and right."""
    d = ZONE_DEPTH
    strips = [
        [[0.0, 0.0], [width, 0.0], [width, d], [0.0, d]],
        [[0.0, height - d], [width, height - d], [width, height], [0.0, height]],
        [[0.0, d], [d, d], [d, height - d], [0.0, height - d]],
        [[width - d, d], [width, d], [width, height - d], [width - d, height - d]],
    ]
    the_map = MapData(
        name=f"Open table {width:g}x{height:g}",
        width=width,
        height=height,
        zones=dict(zip(engine.sides(), strips, strict=False)),
    )
    return the_map, ""


def add_feature(raw: Mapping[str, Any], engine: Engine[Any], current: MapData | None) -> tuple[MapData, str]:
    """A feature as ``/map feature add`` gives it, added to the draft under a name no other has."""
    if current is None:
        raise Refusal("There is no map yet: start one with /map new.")
    feature = read_feature(raw, engine.terrain(), f"the new {raw['kind']}")
    taken = {f.name.casefold() for f in current.features if f.name}
    if feature.name and feature.name.casefold() in taken:
        raise Refusal(f"The map already has a feature called {short(feature.name)}: give another name.")
    problem = feature_name_problem(feature.name, [f.name for f in current.features]) if feature.name else None
    if problem is not None:
        raise Refusal(problem)
    new = replace(current, features=[*current.features, feature])
    return new, shown(f"{len(new.features)}. {feature_label(feature)} is on {new.name}.") + "\n"


def remove_feature(wanted: str, _engine: Engine[Any], current: MapData | None) -> tuple[MapData, str]:
    """The feature ``wanted`` names (its number in the list, or its name) taken off the draft."""
    if current is None:
        raise Refusal("There is no map yet: start one with /map new.")
    index = feature_index(current, wanted)
    removed = feature_label(current.features[index])
    new = replace(current, features=[f for i, f in enumerate(current.features) if i != index])
    return new, shown(f"{removed} is off {new.name}.") + "\n"


def set_zone(side: str, points: list[list[float]], engine: Engine[Any], current: MapData | None) -> tuple[MapData, str]:
    """A side's deployment zone on the draft, as the corners of a polygon."""
    if current is None:
        raise Refusal("There is no map yet: start one with /map new.")
    named = next((s for s in engine.sides() if s.casefold() == " ".join(str(side).split()).casefold()), None)
    if named is None:
        raise Refusal(f"{short(str(side))} is not a side here: choose {', '.join(engine.sides())}.")
    if len(points) < 3:
        raise Refusal("A deployment zone needs at least 3 corners.")
    new = replace(current, zones={**current.zones, named: points})
    return new, f"{named} deploys inside {corners(points)}.\n"


def feature_label(feature: Any) -> str:
    return f"{feature.name} ({feature.kind})" if feature.name else f"a {feature.kind}"


def feature_index(draft: MapData, wanted: str) -> int:
    """The index of the feature ``wanted`` names: its number in the list (from 1) or its name."""
    text = " ".join(str(wanted or "").split())
    number = text.rstrip(".").split(".")[0].strip()
    if number.isdigit():
        index = int(number) - 1
        if 0 <= index < len(draft.features):
            return index
        raise Refusal(f"The map has {len(draft.features)} features; there is no number {int(number)}.")
    for i, feature in enumerate(draft.features):
        if feature.name and feature.name.casefold() == text.casefold():
            return i
    raise Refusal(f"There is no feature called {short(text)} on the map: name it, or give its number.")


def corners(points: Sequence[Sequence[float]]) -> str:
    return " ".join(f"{x:g},{y:g}" for x, y in points)
