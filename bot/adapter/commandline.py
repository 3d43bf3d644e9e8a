"""A slash-command line read against the bot's Discord command tree, as Discord would send it
(:func:`walk`, :func:`parse_line`): the tests compare it with the application's declared commands
(:mod:`bot.app.commands`), which the terminal and /odds read their lines against."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from discord import app_commands
from discord.enums import AppCommandOptionType

from bot.app.commands.line import MAX_ATTACHMENT_BYTES, LineError, split_line
from rules.specs import Kind

__all__ = ["LineError", "LocalAttachment", "ParsedLine", "parse_line", "split_line", "walk"]

HIDDEN_GROUPS = {"admin"}


@dataclass(frozen=True)
class LocalAttachment:
    """A local file given where Discord would take an attachment (``file:roster.yaml``, in the
    terminal); it offers what the cogs use of ``discord.Attachment``."""

    filename: str
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)

    async def read(self) -> bytes:
        return self.data

    @classmethod
    def from_path(cls, option: str, raw: str) -> LocalAttachment:
        path = Path(raw).expanduser()
        try:
            if path.stat().st_size > MAX_ATTACHMENT_BYTES:
                raise LineError(f"{option}: {raw} is larger than Discord would take.")
            return cls(path.name, path.read_bytes())
        except OSError as exc:
            raise LineError(f"{option}: cannot read {raw} ({exc.strerror or exc}).") from None


@dataclass(frozen=True)
class ParsedLine:
    command: app_commands.Command[Any, ..., Any]
    values: dict[str, Any]


def walk(tree: app_commands.CommandTree) -> dict[str, app_commands.Command[Any, ..., Any]]:
    """Every command by its qualified name (``ssg shoot``, ``roll``), as the bot declares it."""
    found: dict[str, app_commands.Command[Any, ..., Any]] = {}

    def visit(item: Any) -> None:
        if isinstance(item, app_commands.Group):
            if item.name in HIDDEN_GROUPS:
                return
            for child in item.commands:
                visit(child)
        elif isinstance(item, app_commands.Command):
            found[item.qualified_name] = item

    for command in tree.get_commands():
        visit(command)
    return found


def parse_line(commands: dict[str, app_commands.Command[Any, ..., Any]], tokens: list[str]) -> ParsedLine:
    """``/ssg shoot shooter:Rossi target:"Big Jim" range:14`` into a command and typed values."""
    split = next((i for i, t in enumerate(tokens) if i and ":" in t), len(tokens))
    name = " ".join([tokens[0].lstrip("/"), *tokens[1:split]]).lower()
    rest = tokens[split:]
    command = commands.get(name)
    if command is None:
        raise LineError(f"There is no command /{name}: type /help for the list.")
    params = {p.display_name: p for p in command.parameters}
    values: dict[str, Any] = {}
    for token in rest:
        key, sep, raw = token.partition(":")
        if not sep:
            raise LineError(f"Write options as name:value; {token!r} is not one.")
        param = params.get(key.lower())
        if param is None:
            raise LineError(f"/{name} has no option {key!r}: it takes {', '.join(params) or 'none'}.")
        values[param.name] = convert(param, raw)
    missing = [p.display_name for p in command.parameters if p.required and p.name not in values]
    if missing:
        raise LineError(f"/{name} needs {', '.join(missing)}.")
    return ParsedLine(command, values)


def read_line(commands: dict[str, app_commands.Command[Any, ..., Any]], line: str) -> ParsedLine:
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


def _rest_of_line(commands: dict[str, app_commands.Command[Any, ..., Any]], line: str) -> ParsedLine | None:
    head, sep, raw = line.partition(":")
    *words, key = head.split() or [""]
    command = commands.get(" ".join([w.lstrip("/") for w in words[:1]] + words[1:]).lower())
    if not sep or command is None or len(command.parameters) != 1:
        return None
    [param] = command.parameters
    if param.type is not AppCommandOptionType.string or key.lower() != param.display_name:
        return None
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        raw = raw[1:-1]
    return ParsedLine(command, {param.name: convert(param, raw)})


def convert(param: app_commands.Parameter, raw: str) -> Any:
    """A typed value as Discord would send it: numbers, yes/no, a listed choice, within range."""
    kind = param.type
    value: Any
    if kind is AppCommandOptionType.integer:
        try:
            value = int(raw)
        except ValueError:
            raise LineError(f"{param.display_name} takes a whole number, not {raw!r}.") from None
    elif kind is AppCommandOptionType.number:
        try:
            value = float(raw)
        except ValueError:
            raise LineError(f"{param.display_name} takes a number, not {raw!r}.") from None
    elif kind is AppCommandOptionType.boolean:
        if raw.lower() not in {"yes", "no", "true", "false"}:
            raise LineError(f"{param.display_name} takes yes or no, not {raw!r}.")
        value = raw.lower() in {"yes", "true"}
    elif kind is AppCommandOptionType.string:
        value = raw
    elif kind is AppCommandOptionType.attachment:
        return LocalAttachment.from_path(param.display_name, raw)
    else:
        raise LineError(f"{param.display_name} cannot be given in the terminal.")
    if param.choices:
        by_value = {str(c.value).lower(): c.value for c in param.choices}
        by_name = {c.name.lower(): c.value for c in param.choices}
        chosen = by_value.get(str(value).lower(), by_name.get(str(value).lower()))
        if chosen is None:
            allowed = ", ".join(str(c.value) for c in param.choices)
            raise LineError(f"{param.display_name} must be one of {allowed}.")
        return chosen
    low, high = param.min_value, param.max_value
    size = len(value) if isinstance(value, str) else value
    if (low is not None and size < low) or (high is not None and size > high):
        unit = " characters" if isinstance(value, str) else ""
        raise LineError(f"{param.display_name} must be from {low} to {high}{unit}.")
    return value


# --- a ruleset's cog as commands, for the terminal ------------------------------------------------

KINDS = {
    AppCommandOptionType.integer: Kind.WHOLE,
    AppCommandOptionType.number: Kind.NUMBER,
    AppCommandOptionType.boolean: Kind.FLAG,
    AppCommandOptionType.attachment: Kind.FILE,
}
