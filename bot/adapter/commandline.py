"""The Discord command tree read as commands, for the rulesets whose engines do not declare their
actions as specs yet: their cogs still describe them.

The terminal parses lines against the application's declared commands (:mod:`bot.app.commands`);
for such a ruleset it takes :func:`tree_commands`: each of its cog's commands as a
:class:`~bot.app.commands.declared.Command`, run by calling the cog's callback with a console
stand-in for the interaction. Once every ruleset declares its specs, this module goes. The
tree-walking parser below (:func:`walk`, :func:`parse_line`) reads a line as Discord would send it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from discord import app_commands
from discord.enums import AppCommandOptionType

from bot.app.commands.declared import Command, Upload
from bot.app.commands.line import MAX_ATTACHMENT_BYTES, LineError, split_line
from bot.app.commands.rulesets import has_specs
from bot.app.commands.table import command_table
from bot.app.replies import Caller, Reply
from rules import RULESETS
from rules.core import RuleError
from rules.specs import NAME_LENGTH, Kind, Option, Role

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


@dataclass
class ConsoleUser:
    id: int
    name: str

    @property
    def display_name(self) -> str:
        return self.name

    @property
    def mention(self) -> str:
        return f"@{self.name}"


@dataclass
class ConsoleResponse:
    sent: list[dict[str, Any]] = field(default_factory=list)

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self.sent.append({"content": content, **kwargs})

    async def defer(self, **kwargs: Any) -> None:
        self.sent.append({"deferred": True})


@dataclass
class ConsoleFollowup:
    response: ConsoleResponse

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        self.response.sent.append({"content": content, **kwargs})


class ConsoleInteraction:
    """What the cogs use of a ``discord.Interaction``, for a command typed in the terminal."""

    def __init__(self, client: Any, caller: Caller) -> None:
        self.client = client
        self.user = ConsoleUser(caller.user_id, caller.display_name)
        self.guild_id = caller.guild_id
        self.channel_id = caller.channel_id
        self.id = caller.interaction_id
        self.extras: dict[str, Any] = {}
        self.response = ConsoleResponse()
        self.followup = ConsoleFollowup(self.response)
        self.command: Any = None


class _Capture:
    """Stands in for a ruleset cog: its command's callback hands over the action instead of acting."""

    def __init__(self) -> None:
        self.action: tuple[str, str, dict[str, Any]] | None = None

    @property
    def app(self) -> Any:
        """A ruleset's question (such as /sharpe targets) asks the application, not the engine's dice."""
        raise RuleError("That command is a question, not an action with dice: ask it directly.")

    async def act(self, interaction: Any, ruleset: str, action: str, **params: Any) -> None:
        self.action = (ruleset, action, params)


@dataclass(frozen=True)
class CogCommand(Command):
    """A command read from a cog: its options are the cog's parameters (an NSR option is called
    ``class``, which no dataclass field may be)."""

    cog_options: tuple[Option, ...] = ()

    @property
    def options(self) -> tuple[Option, ...]:
        return self.cog_options


def _options_of(command: app_commands.Command[Any, ..., Any]) -> tuple[Option, ...]:
    """The command's options, as the specs declare them."""
    found = []
    for p in command.parameters:
        kind = KINDS.get(p.type, Kind.CHOICE if p.choices else Kind.TEXT)
        number = kind in (Kind.WHOLE, Kind.NUMBER)
        found.append(
            Option(
                p.display_name,
                p.description,
                kind,
                p.required,
                tuple(str(c.value) for c in p.choices),
                p.min_value if number else None,
                p.max_value if number else None,
                NAME_LENGTH if number or p.max_value is None else int(p.max_value),
            )
        )
    return tuple(found)


def _cog_command(client: Any, command: app_commands.Command[Any, ..., Any]) -> Command:
    names = {p.display_name: p.name for p in command.parameters}

    def values_of(values: Mapping[str, Any]) -> dict[str, Any]:
        return {
            names[k]: LocalAttachment(v.filename, v.data) if isinstance(v, Upload) else v
            for k, v in values.items()
            if k in names
        }

    async def run(app: Any, caller: Caller, values: Mapping[str, Any]) -> Reply:
        interaction = ConsoleInteraction(client, caller)
        interaction.command = command
        await command.callback(command.binding, interaction, **values_of(values))  # type: ignore[arg-type]
        reply: Reply | None = interaction.extras.get("reply")
        return reply if reply is not None else Reply(content="Done.")

    async def action_of(values: Mapping[str, Any]) -> tuple[str, str, dict[str, Any]]:
        capture = _Capture()
        await command.callback(capture, None, **values_of(values))  # type: ignore[arg-type]
        if capture.action is None:
            raise RuleError("That command is not an action with dice.")
        return capture.action

    quick = getattr(command.binding, "quick_moves", ())
    return CogCommand(
        tuple(command.qualified_name.split()),
        command.description,
        lock=True,
        picture=True,
        follows=True,
        role=Role.PASS if command.name in quick else Role.PLAY,
        samples=command.extras.get("samples", {}),
        runner=run,
        action_of=action_of,
        cog_options=_options_of(command),
        choice_names={
            p.display_name: {str(c.value): c.name for c in p.choices} for p in command.parameters if p.choices
        },
    )


def tree_commands(tree: app_commands.CommandTree, slugs: tuple[str, ...]) -> tuple[Command, ...]:
    """The commands of the rulesets ``slugs`` as their cogs declare them in ``tree``."""
    found = walk(tree)
    return tuple(_cog_command(tree.client, c) for name, c in found.items() if name.split()[0] in slugs)


def without_specs() -> tuple[str, ...]:
    """The rulesets whose engines do not declare their actions as specs yet."""
    return tuple(slug for slug in RULESETS if not has_specs(slug))


def tree_table(tree: app_commands.CommandTree) -> dict[str, Command]:
    """The application's commands, and those of the rulesets without specs from their cogs."""
    return command_table(tree_commands(tree, without_specs()))
