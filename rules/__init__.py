"""The pure rules core: one package per ruleset, each with ``engine.py`` and ``tables.yaml``.

Nothing here imports discord or sqlalchemy; engines see dice only through ``DiceSource``. A
ruleset is found by its package: ``rules/<slug>/engine.py`` exposing ``SLUG``, ``TITLE`` and
``make_engine(house_rules) -> Engine`` (an engine derived from :class:`rules.core.Engine`);
nothing else needs to list it.
"""

from __future__ import annotations

import functools
import importlib
import json
import pkgutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules.core import Engine, RuleError

#: The order rulesets are offered in; any other ruleset package found follows, by name.
PREFERRED_ORDER = ("ssg", "sharpe", "nsr", "yasg", "medieval")


def _discover() -> dict[str, tuple[str, str]]:
    found: dict[str, tuple[str, str]] = {}
    here = Path(__file__).parent
    for info in pkgutil.iter_modules([str(here)]):
        if not info.ispkg or not (here / info.name / "engine.py").exists():
            continue
        module_name = f"rules.{info.name}.engine"
        module = importlib.import_module(module_name)
        found[module.SLUG] = (module_name, module.TITLE)
    ordered = [s for s in PREFERRED_ORDER if s in found] + sorted(set(found) - set(PREFERRED_ORDER))
    return {slug: found[slug] for slug in ordered}


#: slug -> (engine module, title)
RULESETS: dict[str, tuple[str, str]] = _discover()


def ruleset_titles() -> dict[str, str]:
    return {slug: title for slug, (_, title) in RULESETS.items()}


def get_engine(slug: str, house_rules: Mapping[str, Any] | None = None) -> Engine[Any]:
    """The engine for ``slug`` with the campaign's house rules applied.

    Engines hold nothing but their validated tables, so one is built per ruleset and set of
    house rules and shared: building one means reading and checking its YAML.
    """
    if slug not in RULESETS:
        raise RuleError(f"There is no ruleset called {slug!r} here.")
    key = json.dumps(house_rules or {}, sort_keys=True, default=str)
    return _engine(slug, key)


@functools.lru_cache(maxsize=256)
def _engine(slug: str, house_rules_json: str) -> Engine[Any]:
    module = importlib.import_module(RULESETS[slug][0])
    engine = module.make_engine(json.loads(house_rules_json) or None)
    if not isinstance(engine, Engine):
        raise TypeError(f"{RULESETS[slug][0]}.make_engine must build a rules.core.Engine")
    return engine
