"""The pure rules core: one package per ruleset, each with ``engine.py`` and ``tables.yaml``.

Nothing here imports discord or sqlalchemy; engines see dice only through ``DiceSource``.
"""
from __future__ import annotations

import importlib
from typing import Any, Mapping

from rules.core import Engine, RuleError

#: slug -> (module, title). Each module has ``make_engine(house_rules) -> Engine``.
RULESETS: dict[str, tuple[str, str]] = {
    "ssg": ("rules.ssg.engine", "Simple Skirmish Game"),
}


def ruleset_titles() -> dict[str, str]:
    return {slug: title for slug, (_, title) in RULESETS.items()}


def get_engine(slug: str, house_rules: Mapping[str, Any] | None = None) -> Engine[Any]:
    """The engine for ``slug`` with the campaign's house rules applied."""
    if slug not in RULESETS:
        raise RuleError(f"There is no ruleset called {slug!r} here.")
    module = importlib.import_module(RULESETS[slug][0])
    return module.make_engine(house_rules)
