"""What a command of the application is (path, sentence, typed options, the part it runs, policy),
and a command line (``/ssg shoot shooter:Rossi range:14``) read against a table of them: the terminal
reads every line this way, and ``/odds`` the action it is asked about. A line's values are typed as
Discord would hand them (numbers, a file read from its path); the command checks them."""

from __future__ import annotations

import dataclasses
import logging
import shlex
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app.entries import command_line
from bot.app.replies import Caller, Reply
from rules.specs import Kind, NoParams, Option, Params, Role, options_of, read_params
from rules.vocabulary import RuleError

#: The application (:class:`bot.app.service.App`) is typed ``Any`` here: the App builds the parts
#: that /odds reads its line with, so naming it would make an import circle.
#: A command's work: the application, who calls, and its options read into its params dataclass.
Call = Callable[[Any, Caller, Any], Awaitable[Reply]]
#: Suggestions for an option being typed: ``(app, caller, typed) -> [(label, value), ...]``.
Completer = Callable[[Any, Caller, str], Awaitable[list[tuple[str, str]]]]

#: The type a player is told an option takes (/help), by kind: Discord's names for them.
TYPE_NAMES: Mapping[Kind, str] = {
    Kind.NUMBER: "number",
    Kind.WHOLE: "integer",
    Kind.FLAG: "boolean",
    Kind.FILE: "attachment",
}


def type_name(option: Option) -> str:
    return TYPE_NAMES.get(option.kind, "string")


@dataclass(frozen=True)
class Upload:
    """A file given to a command (an attachment on Discord, a path at the terminal): its name and bytes."""

    filename: str
    data: bytes


@dataclass(frozen=True)
class Command:
    """One command as every front-end offers it.

    ``call`` runs it on the application's part with the options read into ``params``; a ruleset's
    action (``ruleset`` set) runs through :meth:`bot.app.actions.Actions.act` instead, which reads
    the options with the action's own spec. Policy: ``lock`` (the part takes the channel's lock),
    ``gm_only`` (the part refuses anyone but the game master of the campaign here), ``picture`` (the reply's picture of
    the battlefield is drawn and attached; with ``follows``, an action's may follow its answer),
    ``slow`` and ``late_note`` (how a front-end that must answer at once waits for it). A test holds
    ``lock`` and ``gm_only`` to what the parts do (``tests/app/test_command_policy.py``).
    """

    path: tuple[str, ...]
    description: str
    params: type[Params] = NoParams
    call: Call | None = None
    lock: bool = False
    gm_only: bool = False
    picture: bool = False
    follows: bool = False
    ruleset: str | None = None
    role: Role = Role.PLAY
    completes: Mapping[str, Completer] = field(default_factory=dict)
    #: The answer may take a while (odds worked out in another process): a front-end that must
    #: answer at once says it is working on it first.
    slow: bool = False
    #: Said first, privately, when an answer that may take a while (a long battle's report) came
    #: late and is public: it follows as a message of its own.
    late_note: str | None = None

    @property
    def name(self) -> str:
        """The qualified name, as typed after the slash: ``ssg shoot``, ``roll``."""
        return " ".join(self.path)

    @property
    def group(self) -> str:
        return self.path[0]

    @property
    def options(self) -> tuple[Option, ...]:
        return options_of(self.params)

    def raw(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's value as given (None where it is not), then anything given that the
        command does not take, for its own check to refuse by name."""
        return {**{o.name: None for o in self.options}, **values}

    def action(self, values: Mapping[str, Any]) -> tuple[str, str, dict[str, Any]]:
        """The ruleset's action this command stands for, with ``values`` as its options."""
        assert self.ruleset is not None, f"/{self.name} is no ruleset's action"
        return self.ruleset, self.path[-1], self.raw(values)

    async def run(self, app: Any, caller: Caller, values: Mapping[str, Any]) -> Reply:
        """Run the command with ``values`` (typed as a front-end reads them, by option name)."""
        if self.ruleset is not None:
            raw = self.raw(values)
            typed = command_line(self.ruleset, self.path[-1], raw)
            work: Callable[[], Awaitable[Reply]] = lambda: app.actions.act(  # noqa: E731
                caller, self.ruleset, self.path[-1], raw, typed
            )
        else:
            assert self.call is not None, f"/{self.name} runs nothing"
            call, read = self.call, read_params(self.params, self.raw(values), f"/{self.name}")
            work = lambda: call(app, caller, read)  # noqa: E731
        return await self.answered(app, work)

    async def answered(self, app: Any, work: Callable[[], Awaitable[Reply]]) -> Reply:
        """``work``'s reply as this command's policy delivers it: with its picture, when it shows
        the battlefield (a button that does this command's work answers the same way)."""
        if self.picture:
            return await app.ctx.pictures.drawn(work, follows=self.follows)()
        return await work()


def table_of(*groups: tuple[Command, ...]) -> dict[str, Command]:
    """Commands by qualified name, in the order given."""
    table: dict[str, Command] = {}
    for command in (c for group in groups for c in group):
        if command.name in table:
            raise ValueError(f"two commands are called /{command.name}")
        table[command.name] = command
    return table


def replaced(command: Command, **changes: Any) -> Command:
    return dataclasses.replace(command, **changes)


#: What a player is told when a command fails by a bug (the log gets the traceback).
BUG_SENTENCE = "Something went wrong on our side; nothing was changed. The game master can check the bot's log."


def failure_sentence(exc: BaseException, *, context: str = "") -> str:
    """The sentence for the player: a refusal's own, else (a bug, logged with its traceback) an apology."""
    if isinstance(exc, RuleError):
        return exc.message
    logging.getLogger("skirmish_gm.errors").error(
        "unexpected error%s", f" in {context}" if context else "", exc_info=exc
    )
    return BUG_SENTENCE


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
        # An option the command does not take, or one missing, is the command's own refusal.
        values[key if declared is None else declared.name] = raw if declared is None else convert(declared, raw)
    return ParsedLine(command, values)


def read_line(commands: Mapping[str, Command], line: str) -> ParsedLine:
    """A whole line, as :func:`parse_line` reads its words; failing that (or naming options the
    command does not take), a command whose one option is a text takes the rest of the line as it,
    one pair of outer quotes removed, so that quotes inside need no escaping:
    ``/odds action:"ssg shoot shooter:Rossi target:"Big Jim""``."""
    try:
        parsed = parse_line(commands, split_line(line))
    except LineError as refused:
        whole = _rest_of_line(commands, line)
        if whole is None:
            raise refused from None
        return whole
    taken = {o.name for o in parsed.command.options}
    if set(parsed.values) <= taken:
        return parsed
    return _rest_of_line(commands, line) or parsed


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


def convert(declared: Option, raw: str) -> Any:
    """A typed word as the value a front-end hands on, as Discord would hand it: a number read from
    its digits, a file read from its path, the rest as typed. Bounds, lengths, yes or no and the
    choices are the command's own checks (:func:`rules.specs.read_option`), so a refusal reads the
    same whichever front-end the line came from."""
    if declared.kind is Kind.FILE:
        return upload_from_path(declared.name, raw)
    if declared.kind in (Kind.NUMBER, Kind.WHOLE):
        try:
            number = float(raw)
        except ValueError:
            return raw  # not a number: refused by the option's own check, with its sentence
        return int(number) if declared.kind is Kind.WHOLE and number.is_integer() else number
    return raw


def upload_from_path(option: str, raw: str) -> Upload:
    """A local file given where Discord would take an attachment (``file:roster.yaml``)."""
    path = Path(raw).expanduser()
    try:
        if path.stat().st_size > MAX_ATTACHMENT_BYTES:
            raise LineError(f"{option}: {raw} is larger than Discord would take.")
        return Upload(path.name, path.read_bytes())
    except OSError as exc:
        raise LineError(f"{option}: cannot read {raw} ({exc.strerror or exc}).") from None
