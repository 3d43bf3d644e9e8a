"""What a command of the application is: path, sentence, typed options, the part it runs, policy."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.app.inputs import command_line
from bot.app.replies import Caller, Reply
from rules.specs import Kind, NoParams, Option, Params, Role, options_of, read_option
from rules.vocabulary import RuleError

#: The application (:class:`bot.app.service.App`) is typed ``Any`` here: the App builds the parts
#: that /odds reads its line with, so naming it would make an import circle.
#: A command's work: the application, who calls, and its options read into its params dataclass.
Call = Callable[[Any, Caller, Any], Awaitable[Reply]]
#: A command run from raw values by another road than :meth:`Command.run` (a front-end's own).
Runner = Callable[[Any, Caller, Mapping[str, Any]], Awaitable[Reply]]
#: Suggestions for an option being typed: ``(app, caller, typed) -> [(label, value), ...]``.
Completer = Callable[[Any, Caller, str], Awaitable[list[tuple[str, str]]]]
#: The action a ruleset command stands for, from its values: ``(ruleset, action, options)``.
ActionOf = Callable[[Mapping[str, Any]], Awaitable[tuple[str, str, dict[str, Any]]]]

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
    ``gm_only`` (the part refuses anyone but the game master), ``picture`` (the reply's picture of
    the battlefield is drawn and attached; with ``follows``, an action's may follow its answer).
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
    #: Example values for /help, by option name (YASG names squares, not inches).
    samples: Mapping[str, str] = field(default_factory=dict)
    #: The names a choice is shown by, by option and value (``ruleset``: ``ssg`` is "Simple
    #: Skirmish Game"); a player may type the name for the value.
    choice_names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    runner: Runner | None = None
    #: A ruleset command's action from its values, when not its own name and options (a cog's).
    action_of: ActionOf | None = None

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

    async def action(self, values: Mapping[str, Any]) -> tuple[str, str, dict[str, Any]]:
        """The ruleset's action this command stands for, with ``values`` as its options."""
        if self.action_of is not None:
            return await self.action_of(values)
        assert self.ruleset is not None, f"/{self.name} is no ruleset's action"
        return self.ruleset, self.path[-1], {o.name: values.get(o.name) for o in self.options}

    async def run(self, app: Any, caller: Caller, values: Mapping[str, Any]) -> Reply:
        """Run the command with ``values`` (typed as a front-end reads them, by option name)."""
        if self.runner is not None:
            return await self.runner(app, caller, values)
        if self.ruleset is not None:
            raw = {o.name: values.get(o.name) for o in self.options}
            typed = command_line(self.ruleset, self.path[-1], raw)
            work: Callable[[], Awaitable[Reply]] = lambda: app.actions.act(  # noqa: E731
                caller, self.ruleset, self.path[-1], raw, typed
            )
        else:
            assert self.call is not None, f"/{self.name} runs nothing"
            call, read = self.call, read_values(self.params, values, f"/{self.name}")
            work = lambda: call(app, caller, read)  # noqa: E731
        if self.picture:
            return await app.ctx.pictures.drawn(work, follows=self.follows)()
        return await work()


def read_values(params: type[Params], values: Mapping[str, Any], command: str) -> Any:
    """``values`` read into ``params``: each checked by its option (a file passes as given)."""
    declared = options_of(params)
    names = {o.name for o in declared}
    unknown = [key for key, value in values.items() if key not in names and value is not None]
    if unknown:
        raise RuleError(f"{command} has no option {unknown[0]!r}.")
    read = {o.name: values.get(o.name) if o.kind is Kind.FILE else read_option(o, values.get(o.name)) for o in declared}
    missing = [o.name for o in declared if o.required and read[o.name] is None]
    if missing:
        raise RuleError(f"{command} needs {', '.join(missing)}.")
    return params(**read)


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
