"""The name rules for a map's features, as for figures: no mention, no markdown, nothing invisible
(:mod:`bot.app.name_rules`), and no name that looks like another feature's on the same map
(:mod:`bot.app.lookalike`). A feature's name is shown on the map's card, in its picture and in
the battle's sentences ("behind the Old Mill"), like a figure's.

Pure functions over names and a read map, so a map file is held to them wherever it is parsed
(on the event loop or in a worker process): :func:`read_named_map` is the reader to call.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.app.inputs import clean_name
from bot.app.lookalike import look_alike
from bot.app.replies import Refusal
from rules.battlefield import MapData
from rules.battlefield.maps import MAX_NAME
from rules.core import DataError, Engine, short

FEATURE = "feature"


def feature_name_problem(name: str, others: Iterable[str]) -> str | None:
    """Why ``name`` may not name a feature beside ``others`` (the map's other features' names), as
    a sentence; None when it may. The very same name is allowed: a map file names each piece of a
    river or a wall drawn in parts alike (/map feature add refuses it, to keep names apart)."""
    try:
        cleaned = clean_name(name, FEATURE, MAX_NAME)
    except Refusal as exc:
        return exc.message
    similar = look_alike(cleaned, (other for other in others if other and other != cleaned))
    if similar is not None:
        return (
            f"{short(cleaned)} looks like {short(similar)}, already a feature on this map: "
            "choose a name players can tell apart."
        )
    return None


def map_name_problems(the_map: MapData) -> list[str]:
    """Each feature name of ``the_map`` that breaks the rules, as a map file's problem is written
    (``features[2].name: …``), each checked against the names before it."""
    problems: list[str] = []
    seen: list[str] = []
    for index, feature in enumerate(the_map.features):
        if not feature.name:
            continue
        problem = feature_name_problem(feature.name, seen)
        if problem is not None:
            problems.append(f"features[{index}].name: {problem}")
        seen.append(feature.name)
    return problems


def read_named_map(engine: Engine[Any], data: Any) -> MapData:
    """``engine.read_map(data)`` with every feature's name held to the name rules: one
    :class:`~rules.core.DataError` with every problem."""
    the_map = engine.read_map(data)
    problems = map_name_problems(the_map)
    if problems:
        raise DataError(problems)
    return the_map
