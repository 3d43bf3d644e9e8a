"""The switches a ruleset offers its campaigns, read from its ``tables.yaml`` with their comments.

A switch is a top-level entry whose value is yes/no or a word (``natural_one_misses: false``,
``ground_scale: 54mm``), or any entry of the ruleset's ``options:`` mapping (Sharpe's ``head5``,
NSR's ``smoothed_firing_rows``). Numbers and tables can be overridden too, but they are not listed:
the ruleset's whole ``tables.yaml`` is attached by ``/campaign rules show`` for those.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.app.yaml_format import Doc, read
from rules import RULESETS

OPTIONS_KEY = "options"
NOTE_MAX = 140


@dataclass(frozen=True)
class Switch:
    path: tuple[str, ...]
    default: Any
    note: str

    @property
    def name(self) -> str:
        return ".".join(self.path)


def package_of(slug: str) -> str:
    return RULESETS[slug][0].rsplit(".", 1)[0]


@functools.cache
def tables_text(slug: str) -> str:
    """The ruleset's shipped ``tables.yaml``, comments and all."""
    return importlib.resources.files(package_of(slug)).joinpath("tables.yaml").read_text(encoding="utf-8")


@functools.cache
def switches(slug: str) -> tuple[Switch, ...]:
    text = tables_text(slug)
    doc = read(text.encode("utf-8"))
    lines = text.splitlines()
    found: list[Switch] = []
    data = doc.data if isinstance(doc.data, Mapping) else {}
    for key, value in data.items():
        if key == OPTIONS_KEY and isinstance(value, Mapping):
            for option, setting in value.items():
                if not isinstance(setting, (Mapping, list)):
                    found.append(Switch((key, str(option)), setting, _note(doc, lines, (key, option))))
        elif isinstance(value, (bool, str)):
            found.append(Switch((str(key),), value, _note(doc, lines, (key,))))
    return tuple(found)


def value_at(data: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = data
    for key in path:
        if not isinstance(value, Mapping) or key not in value:
            return None
        value = value[key]
    return value


def show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


_TRAILING = re.compile(r"""^[^#'"]*?:\s*[^#'"]*?\s#\s?(?P<note>.*)$""")


def _note(doc: Doc, lines: list[str], path: tuple[Any, ...]) -> str:
    """The comment on the switch's line, or else the comment lines just above it."""
    line = doc.lines.get(path)
    if line is None:
        return ""
    match = _TRAILING.match(lines[line - 1])
    if match:
        return _cut(match["note"])
    above: list[str] = []
    index = line - 2
    while index >= 0 and lines[index].strip().startswith("#"):
        above.insert(0, lines[index].strip().lstrip("#").strip())
        index -= 1
    return _cut(" ".join(a for a in above if a and not set(a) <= set("-=")))


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= NOTE_MAX else text[: NOTE_MAX - 1] + "…"
