"""What the rules tests share: the ``engine`` fixture, a fresh engine of the ruleset a test module
is about (``test_<slug>_*.py``), with its shipped tables and no house rules."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from rules import RULESETS
from rules.core import Engine


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> Engine[Any]:
    module = request.module.__name__.rsplit(".", 1)[-1]
    slug = module.split("_")[1] if module.count("_") >= 2 else ""
    if slug not in RULESETS:
        raise LookupError(f"{module} is not named test_<ruleset>_…: give it its own engine fixture")
    built: Engine[Any] = importlib.import_module(RULESETS[slug][0]).make_engine()
    return built
