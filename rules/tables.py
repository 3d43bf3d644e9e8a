"""Loading a ruleset's ``tables.yaml``, with a campaign's house rules laid over it."""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from importlib import resources
from typing import Any, TypeVar

import yaml

from rules.contract import DataError
from rules.plain import from_data, merge

T = TypeVar("T")

#: libyaml's safe loader where PyYAML was built with it (several times faster), else the pure one.
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml_text(text: str, what: str) -> Any:
    """``yaml.safe_load`` with a parse error turned into a readable :class:`DataError`."""
    try:
        return yaml.load(text, Loader=SAFE_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else what
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise DataError([f"{where}: {problem}"]) from None


def base_tables(package: str) -> dict[str, Any]:
    """The ruleset's shipped ``tables.yaml`` as plain data (a fresh copy each time)."""
    return copy.deepcopy(_parsed_tables(package))


@functools.cache
def _parsed_tables(package: str) -> dict[str, Any]:
    text = resources.files(package).joinpath("tables.yaml").read_text(encoding="utf-8")
    data = read_yaml_text(text, f"{package}/tables.yaml")
    if not isinstance(data, dict):
        raise DataError([f"{package}/tables.yaml: expected a mapping at the top level"])
    return data


def load_tables(package: str, cls: type[T], house_rules: Mapping[str, Any] | None = None) -> T:
    """The validated tables of ``package``; house rules override any key, validated the same way."""
    data = base_tables(package)
    if house_rules:
        data = merge(data, house_rules)
    return from_data(cls, data)
