"""Command lines (``/ssg shoot shooter:Rossi range:14``) parsed against the declared commands: the
terminal reads every line this way, and ``/odds`` the action it is asked about. Values are typed
by their option's kind as a player writes them: numbers, yes/no, a listed choice, a file's path."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.app.commands.declared import Command, Upload
from rules.core import RuleError
from rules.specs import Kind, Option

#: The largest file a command takes from a path (what Discord would take as an attachment).
MAX_ATTACHMENT_BYTES = 8 * 1024 * 1024


class LineError(RuleError):
    """A command line that cannot be read."""


@dataclass(frozen=True)
class ParsedLine:
    command: Command
    values: dict[str, Any]


def split_line(line: str) -> list[str]:
    try:
        return shlex.split(line)
    except ValueError:
        raise LineError("That line has an unclosed quote.") from None


def parse_line(commands: Mapping[str, Command], tokens: list[str]) -> ParsedLine:
    """``/ssg shoot shooter:Rossi target:"Big Jim" range:14`` into a command and typed values."""
    split = next((i for i, t in enumerate(tokens) if i and ":" in t), len(tokens))
    name = " ".join([tokens[0].lstrip("/"), *tokens[1:split]]).lower()
    command = commands.get(name)
    if command is None:
        raise LineError(f"There is no command /{name}: type /help for the list.")
    options = {o.name: o for o in command.options}
    values: dict[str, Any] = {}
    for token in tokens[split:]:
        key, sep, raw = token.partition(":")
        if not sep:
            raise LineError(f"Write options as name:value; {token!r} is not one.")
        declared = options.get(key.lower())
        if declared is None:
            raise LineError(f"/{name} has no option {key!r}: it takes {', '.join(options) or 'none'}.")
        values[declared.name] = convert(declared, raw, command.choice_names.get(declared.name, {}))
    missing = [o.name for o in command.options if o.required and o.name not in values]
    if missing:
        raise LineError(f"/{name} needs {', '.join(missing)}.")
    return ParsedLine(command, values)


def read_line(commands: Mapping[str, Command], line: str) -> ParsedLine:
    """A whole line, as :func:`parse_line` reads its words; failing that, a command whose one option
    is a text takes the rest of the line as it, one pair of outer quotes removed, so that quotes
    inside need no escaping: ``/odds action:"ssg shoot shooter:Rossi target:"Big Jim""``."""
    try:
        return parse_line(commands, split_line(line))
    except LineError as refused:
        whole = _rest_of_line(commands, line)
        if whole is None:
            raise refused from None
        return whole


def _rest_of_line(commands: Mapping[str, Command], line: str) -> ParsedLine | None:
    head, sep, raw = line.partition(":")
    *words, key = head.split() or [""]
    command = commands.get(" ".join([w.lstrip("/") for w in words[:1]] + words[1:]).lower())
    if not sep or command is None or len(command.options) != 1:
        return None
    [declared] = command.options
    if declared.value_type is not str or declared.kind in (Kind.CHOICE, Kind.FILE) or key.lower() != declared.name:
        return None
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        raw = raw[1:-1]
    return ParsedLine(command, {declared.name: convert(declared, raw)})


def convert(declared: Option, raw: str, names: Mapping[str, str] | None = None) -> Any:
    """A typed value as a player means it: numbers, yes/no, a listed choice (or its name, from
    ``names``: value → name), within bounds; a file read from its path."""
    name, kind = declared.name, declared.kind
    value: Any
    if kind is Kind.WHOLE:
        try:
            value = int(raw)
        except ValueError:
            raise LineError(f"{name} takes a whole number, not {raw!r}.") from None
    elif kind is Kind.NUMBER:
        try:
            value = float(raw)
        except ValueError:
            raise LineError(f"{name} takes a number, not {raw!r}.") from None
    elif kind is Kind.FLAG:
        if raw.lower() not in {"yes", "no", "true", "false"}:
            raise LineError(f"{name} takes yes or no, not {raw!r}.")
        value = raw.lower() in {"yes", "true"}
    elif kind is Kind.FILE:
        return upload_from_path(name, raw)
    else:
        value = raw
    if declared.choices:
        shown = dict(zip(declared.choices, declared.labels, strict=False)) | dict(names or {})
        by_name = {name.lower(): value for value, name in shown.items()}
        chosen = {c.lower(): c for c in declared.choices}.get(str(value).lower(), by_name.get(str(value).lower()))
        if chosen is None:
            raise LineError(f"{name} must be one of {', '.join(declared.labels or declared.choices)}.")
        return chosen
    if isinstance(value, str):
        if not 1 <= len(value) <= declared.length:
            raise LineError(f"{name} must be from 1 to {declared.length} characters.")
        return value
    low, high = declared.lowest, declared.highest
    if (low is not None and value < low) or (high is not None and value > high):
        raise LineError(f"{name} must be from {_number(low)} to {_number(high)}.")
    return value


def _number(bound: float | None) -> str:
    if bound is None:
        return "any"
    return str(int(bound)) if float(bound).is_integer() else f"{bound:g}"


def upload_from_path(option: str, raw: str) -> Upload:
    """A local file given where Discord would take an attachment (``file:roster.yaml``)."""
    path = Path(raw).expanduser()
    try:
        if path.stat().st_size > MAX_ATTACHMENT_BYTES:
            raise LineError(f"{option}: {raw} is larger than Discord would take.")
        return Upload(path.name, path.read_bytes())
    except OSError as exc:
        raise LineError(f"{option}: cannot read {raw} ({exc.strerror or exc}).") from None
