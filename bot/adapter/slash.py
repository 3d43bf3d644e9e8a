"""Slash commands built from the declared commands (:mod:`bot.app.commands`): the options, their
types, bounds, choices, descriptions and completions are read from each command's params dataclass
(:mod:`rules.specs`), so a command's options are written once, and its answer is delivered as its
declared policy says.

:func:`options_command` builds a real :class:`discord.app_commands.Command` whose callback is a
cog method: ``callback(cog, interaction, **options)``, as a hand-written one would be. It hands the
options, every declared one (None when not given), to ``run(cog, interaction, options)``.
discord.py reads a callback's options from :func:`inspect.signature`, which honours a function's
``__signature__``: the callback gets one whose annotations are the real objects
(``Range[str, 1, 64]``, ``Literal[...]``) a hand-written signature would name.
"""

from __future__ import annotations

import inspect
import keyword
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal, Optional

import discord
from discord import app_commands

from bot.adapter.attachments import upload_of
from bot.adapter.delivery import deliver, deliver_when_ready
from bot.adapter.messages import app_of, caller_of
from bot.app.commands.declared import Command, Completer
from bot.app.replies import Reply
from rules.specs import Kind, Option, Params, options_of

#: Discord's limits on a command (https://discord.com/developers/docs/interactions/application-commands).
DESCRIPTION_LIMIT = 100
CHOICES_LIMIT = 25
OPTIONS_LIMIT = 25

#: What a built command does with its options: ``run(cog, interaction, options)``.
Run = Callable[[Any, discord.Interaction, dict[str, Any]], Awaitable[None]]


async def figure_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    names = await app_of(interaction).rolls.figure_names(caller_of(interaction), current)
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names]


async def roster_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    names = await app_of(interaction).rolls.figure_names(caller_of(interaction), current, in_game=False)
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names]


async def side_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    names = await app_of(interaction).rolls.side_names(caller_of(interaction), current)
    return [app_commands.Choice(name=n, value=n) for n in names]


async def kind_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    names = await app_of(interaction).rolls.kind_names(caller_of(interaction), current)
    return [app_commands.Choice(name=n, value=n) for n in names]


Autocomplete = Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[str]]]]

#: What completes an option, by what it names (the game's figures and units, its sides, the
#: ruleset's kinds of figure, the campaign's rosters).
AUTOCOMPLETES: Mapping[Kind, Autocomplete] = {
    Kind.FIGURE: figure_autocomplete,
    Kind.ENEMY: figure_autocomplete,
    Kind.UNIT: figure_autocomplete,
    Kind.SIDE: side_autocomplete,
    Kind.KIND: kind_autocomplete,
    Kind.ROSTER: roster_autocomplete,
}


def autocomplete_of(complete: Completer) -> Autocomplete:
    """A declared command's own completion of an option, as Discord asks for it."""

    async def autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = await complete(app_of(interaction), caller_of(interaction), current)
        return [app_commands.Choice(name=label[:100], value=value[:100]) for label, value in found[:CHOICES_LIMIT]]

    return autocomplete


def annotation_of(declared: Option) -> Any:
    """The type discord.py turns into the option's Discord type, bounds and choices."""
    if declared.kind is Kind.FILE:
        return discord.Attachment
    if declared.kind is Kind.FLAG:
        return bool
    if declared.kind is Kind.CHOICE:
        if not declared.choices or len(declared.choices) > CHOICES_LIMIT:
            raise ValueError(f"{declared.name}: Discord offers 1 to {CHOICES_LIMIT} choices")
        if declared.labels:  # shown by label, sent as the choice (app_commands.choices below)
            return str
        return Literal[declared.choices]
    if declared.kind is Kind.NUMBER:
        return _ranged(float, declared.lowest, declared.highest)
    if declared.kind is Kind.WHOLE:
        low, high = declared.lowest, declared.highest
        return _ranged(int, None if low is None else int(low), None if high is None else int(high))
    return app_commands.Range[str, 1, declared.length]


def _ranged(number: type, low: float | None, high: float | None) -> Any:
    if low is None and high is None:
        return number
    return app_commands.Range[number, low, high]


def described(text: str) -> str:
    """A description within Discord's 100 characters (a longer help is cut, with an ellipsis)."""
    text = text.strip() or "…"
    return text if len(text) <= DESCRIPTION_LIMIT else text[: DESCRIPTION_LIMIT - 1].rstrip() + "…"


def options_command(
    name: str,
    description: str,
    params: type[Params],
    run: Run,
    completes: Mapping[str, Autocomplete] | None = None,
) -> app_commands.Command[Any, ..., Any]:
    """The slash command ``name`` taking the options of ``params``: required ones first (Discord
    lists them so), each described by its help and completed as ``completes`` says, else by what
    it names."""
    own = dict(completes or {})
    options = options_of(params)
    if len(options) > OPTIONS_LIMIT:
        raise ValueError(f"{name}: Discord takes at most {OPTIONS_LIMIT} options")
    # The callback's parameter for each option: its name, unless Python cannot take it ("class").
    python = {o.name: _python_name(o.name, i) for i, o in enumerate(options)}
    declared = sorted(options, key=lambda o: not o.required)

    async def callback(cog: Any, interaction: discord.Interaction, **given: Any) -> None:
        unknown = sorted(set(given) - set(python.values()))
        if unknown:  # as a written signature would refuse it
            raise TypeError(f"{name}() got an unexpected keyword argument {unknown[0]!r}")
        await run(cog, interaction, {o.name: given.get(python[o.name]) for o in options})

    callback.__name__ = name
    # A method's qualified name: discord.py then takes the first parameter for the cog.
    callback.__qualname__ = f"OptionsCommand.{name}"
    callback.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter("cog", inspect.Parameter.POSITIONAL_OR_KEYWORD),
            inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
            *(_parameter(python[o.name], o) for o in declared),
        ]
    )
    if declared:
        app_commands.describe(**{python[o.name]: described(o.help) for o in declared})(callback)
    renamed = {python[o.name]: o.name for o in declared if python[o.name] != o.name}
    if renamed:
        app_commands.rename(**renamed)(callback)
    labelled = {
        python[o.name]: [
            app_commands.Choice(name=label, value=value) for label, value in zip(o.labels, o.choices, strict=True)
        ]
        for o in declared
        if o.kind is Kind.CHOICE and o.labels
    }
    if labelled:
        app_commands.choices(**labelled)(callback)
    completed = {
        python[o.name]: own.get(o.name) or AUTOCOMPLETES[o.kind]
        for o in declared
        if (o.name in own or o.kind in AUTOCOMPLETES) and not o.choices
    }
    if completed:
        app_commands.autocomplete(**completed)(callback)  # type: ignore[arg-type]
    samples = {o.name: o.example for o in options if o.example}  # /help's example line
    return app_commands.Command(
        name=name, description=described(description), callback=callback, extras={"samples": samples}
    )


def _python_name(name: str, index: int) -> str:
    plain = name.isidentifier() and not keyword.iskeyword(name) and name not in ("cog", "interaction")
    return name if plain else f"option_{index}"


def _parameter(name: str, declared: Option) -> inspect.Parameter:
    annotation = annotation_of(declared)
    if declared.required:
        return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation)
    return inspect.Parameter(
        name,
        inspect.Parameter.KEYWORD_ONLY,
        annotation=Optional[annotation],  # noqa: UP045 (a Range is an object `|` does not take)
        default=None,
    )


def command_slash(command: Command) -> app_commands.Command[Any, ..., Any]:
    """The slash command of a declared command: an attached file is read into an upload, the
    command run on the application, and its answer delivered at once, or, for one that may take a
    while (``slow``, ``late_note``), however long it takes."""

    files = {o.name for o in command.options if o.kind is Kind.FILE}

    async def run(cog: Any, interaction: discord.Interaction, options: dict[str, Any]) -> None:
        values = {
            name: await upload_of(interaction, value) if name in files and value is not None else value
            for name, value in options.items()
        }
        app, caller = app_of(interaction), caller_of(interaction)

        async def work() -> Reply:
            return await command.run(app, caller, values)

        if command.slow or command.late_note is not None:
            await deliver_when_ready(interaction, work, slow=command.slow, follows=command.late_note)
        else:
            await deliver(interaction, await work())

    completes = {name: autocomplete_of(complete) for name, complete in command.completes.items()}
    return options_command(command.path[-1], command.description, command.params, run, completes)
