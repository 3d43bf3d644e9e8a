"""The slash commands built from the declared commands (bot/adapter/slash.py, cogs/commands.py):
every group fits Discord's limits, SSG's is exactly what its hand-written cog declared, the shared
groups keep their subgroups, files, labelled choices and completions, and the builder reads each
kind of option into the type, bounds, choices and completion Discord shows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Literal

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.adapter import next_moves, slash
from bot.adapter.slash import (
    command_slash,
    figure_autocomplete,
    kind_autocomplete,
    options_command,
    roster_autocomplete,
    side_autocomplete,
)
from bot.app.commands.declared import Command
from bot.app.commands.rulesets import OFFERED, group_sentence, ruleset_commands
from bot.app.commands.table import command_table
from cogs.commands import CommandsCog, cogs, group_cog
from rules import RULESETS, get_engine
from rules.specs import ActionSpec, Kind, NoParams, Params, Role, option, spec_table

NAME = re.compile(r"^[-_\w]{1,32}$")
COMMAND_CHARS = 4000


TO_HELP = 'Map: where it goes, x,y in inches from the lower-left corner ("14,22")'
VIA_HELP = 'Map: waypoints on the way, "10,12 14,18" (the last is the end unless to: is given)'


def tree() -> app_commands.CommandTree:
    return app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))


def group_of(cog: commands.GroupCog) -> app_commands.Group:
    group = cog.__cog_app_commands_group__
    assert group is not None
    return group


def built(slug: str) -> app_commands.Group:
    cog = group_cog(slug, group_sentence(slug), ruleset_commands(slug))
    assert isinstance(cog, commands.GroupCog)
    return group_of(cog)


def chars(node: dict[str, Any]) -> int:
    """What Discord counts against a command's 4,000 characters: names, descriptions, choices."""
    total = len(node.get("name", "")) + len(node.get("description", ""))
    for choice in node.get("choices") or []:
        total += len(choice["name"]) + len(str(choice["value"]))
    return total + sum(chars(o) for o in node.get("options") or [])


def limit_problems(payload: dict[str, Any]) -> list[str]:
    problems = []

    def check(node: dict[str, Any], where: str) -> None:
        name, description = node.get("name", ""), node.get("description", "")
        if not (NAME.match(name) and name == name.lower()):
            problems.append(f"{where}: name {name!r}")
        if not 1 <= len(description) <= 100:
            problems.append(f"{where}: description of {len(description)} characters")
        options = node.get("options") or []
        if len(options) > 25:
            problems.append(f"{where}: {len(options)} options or subcommands")
        choices = node.get("choices") or []
        if len(choices) > 25:
            problems.append(f"{where}: {len(choices)} choices")
        for choice in choices:
            if not 1 <= len(choice["name"]) <= 100 or len(str(choice["value"])) > 100:
                problems.append(f"{where}: choice {choice['name']!r}")
        required = [bool(o.get("required")) for o in options if o.get("type") not in (1, 2)]
        if required != sorted(required, reverse=True):
            problems.append(f"{where}: a required option after an optional one")
        for sub in options:
            check(sub, f"{where} {sub.get('name')}")

    check(payload, f"/{payload['name']}")
    for command in payload.get("options") or []:
        if chars(command) > COMMAND_CHARS:
            problems.append(f"/{payload['name']} {command['name']}: {chars(command)} characters")
    if chars(payload) > COMMAND_CHARS:
        problems.append(f"/{payload['name']}: {chars(payload)} characters")
    return problems


def test_ssg_is_built_from_its_specs() -> None:
    assert "ssg" in tuple(RULESETS)
    for slug in tuple(RULESETS):
        offered = [name for name, spec in get_engine(slug).specs.items() if spec.role in OFFERED]
        assert [c.name for c in built(slug).commands] == offered, slug


@pytest.mark.parametrize("slug", tuple(RULESETS))
def test_every_built_group_fits_discords_limits(slug: str) -> None:
    engine = get_engine(slug)
    group = built(slug)
    assert group.name == slug and group.description == (engine.command_blurb or engine.title)
    assert len(group.commands) <= 25
    assert limit_problems(group.to_dict(tree())) == []
    for spec in engine.specs.values():  # nothing cut to fit: every help and sentence fits as written
        assert 1 <= len(spec.sentence) <= 100, (slug, spec.name)
        for declared in spec.options:
            assert 1 <= len(declared.help) <= 100, (slug, spec.name, declared.name)


def test_the_limit_checks_see_what_breaks_them() -> None:
    optional = {"name": "o", "description": "o", "type": 3}
    required = {"name": "x", "description": "d" * 101, "type": 3, "required": True}
    sub = {"name": "sub", "description": "ok", "type": 1, "options": [optional, required]}
    bad = {"name": "Bad", "description": "ok", "options": [sub]}
    problems = limit_problems(bad)
    assert "/Bad: name 'Bad'" in problems
    assert "/Bad sub x: description of 101 characters" in problems
    assert "/Bad sub: a required option after an optional one" in problems


# --- SSG: exactly what the hand-written cogs/ssg.py declared ---------------------------------------

LOS = Literal["clear", "partial", "blocked"]
Inches = app_commands.Range[float, 0, 1000]
Dice = app_commands.Range[int, 1, 3]


class HandWrittenSsgCog(
    commands.GroupCog, group_name="ssg", group_description="Simple Skirmish Game: your turn's actions"
):
    """cogs/ssg.py as it was before its commands were built from the specs (the bodies left out)."""

    @app_commands.command(name="move", description='Movement phase: move a figure (up to 4" in all this turn)')
    @app_commands.describe(
        figure="Your figure",
        to=TO_HELP,
        toward="Map: a figure (or x,y) to move straight at, with distance (default: as far as it may)",
        via=VIA_HELP,
        distance="Inches moved now (table play; on the map with toward:)",
        contact='Table play: the enemy it came within 1" of (it must stop)',
    )
    @app_commands.autocomplete(figure=figure_autocomplete, toward=figure_autocomplete, contact=figure_autocomplete)
    async def move(
        self,
        interaction: discord.Interaction,
        figure: app_commands.Range[str, 1, 64],
        to: app_commands.Range[str, 1, 40] | None = None,
        toward: app_commands.Range[str, 1, 64] | None = None,
        via: app_commands.Range[str, 1, 200] | None = None,
        distance: Inches | None = None,
        contact: app_commands.Range[str, 1, 64] | None = None,
    ) -> None: ...

    @app_commands.command(name="melee", description="Melee phase: fight one duel between figures in contact")
    @app_commands.describe(fighter="Your figure (default: the first pair in contact)", opponent="The enemy it fights")
    @app_commands.autocomplete(fighter=figure_autocomplete, opponent=figure_autocomplete)
    async def melee(
        self,
        interaction: discord.Interaction,
        fighter: app_commands.Range[str, 1, 64] | None = None,
        opponent: app_commands.Range[str, 1, 64] | None = None,
    ) -> None: ...

    @app_commands.command(
        name="shoot", description="Shooting phase: a figure fires, its rate of fire split up to three targets"
    )
    @app_commands.describe(
        shooter="Your figure",
        target="The enemy it fires at",
        range="Table play: inches to the target (the bot measures it on the map)",
        los="Table play: line of sight, as you judge it (the bot works it out on the map)",
        dice="Dice at this target (default: the whole rate of fire)",
        target2="A second target (SMG)",
        range2="Inches to the second target",
        los2="Line of sight to it",
        dice2="Dice at the second target",
        target3="A third target (SMG)",
        range3="Inches to the third target",
        los3="Line of sight to it",
    )
    @app_commands.autocomplete(
        shooter=figure_autocomplete,
        target=figure_autocomplete,
        target2=figure_autocomplete,
        target3=figure_autocomplete,
    )
    async def shoot(
        self,
        interaction: discord.Interaction,
        shooter: app_commands.Range[str, 1, 64],
        target: app_commands.Range[str, 1, 64],
        range: Inches | None = None,
        los: LOS | None = None,
        dice: Dice | None = None,
        target2: app_commands.Range[str, 1, 64] | None = None,
        range2: Inches | None = None,
        los2: LOS | None = None,
        dice2: Dice | None = None,
        target3: app_commands.Range[str, 1, 64] | None = None,
        range3: Inches | None = None,
        los3: LOS | None = None,
    ) -> None: ...

    @app_commands.command(name="next", description="End the current phase (movement → melee → shooting → next player)")
    async def next_(self, interaction: discord.Interaction) -> None: ...


def test_ssgs_commands_are_those_its_hand_written_cog_declared() -> None:
    """The same names, options, types, bounds, choices, descriptions and completions, in the same
    order: players see no change."""
    old = group_of(HandWrittenSsgCog()).to_dict(tree())
    new = built("ssg").to_dict(tree())
    assert [c["name"] for c in new["options"]] == ["move", "melee", "shoot", "next"]
    for was, now in zip(old["options"], new["options"], strict=True):
        assert now == was, was["name"]
    assert new == old
    shoot = built("ssg").get_command("shoot")
    assert isinstance(shoot, app_commands.Command)
    los, dice = shoot.get_parameter("los"), shoot.get_parameter("dice")
    assert los is not None and [c.value for c in los.choices] == ["clear", "partial", "blocked"]
    assert dice is not None and (dice.min_value, dice.max_value) == (1, 3)


# --- the builder, on every kind of option ----------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class EveryKind(Params):
    note: str | None = option("Free text")
    roll: int | None = option("A whole number of at least 2", Kind.WHOLE, lowest=2)
    inches: float | None = option("Any number", Kind.NUMBER)
    sure: bool | None = option("Yes or no", Kind.FLAG)
    mode: str | None = option("One of three", choices=("a", "b", "c"))
    side: str | None = option("A side", Kind.SIDE, length=32)
    kind: str | None = option("A kind of figure", Kind.KIND)
    entry: str | None = option("A roster's figure", Kind.ROSTER)
    enemy: str | None = option("An enemy", Kind.ENEMY)
    at: str | None = option("A point", Kind.POINT, length=40)
    file: object | None = option("An attached file", Kind.FILE)
    who: str = option("Named last, required: Discord lists it first " + "x" * 80, Kind.FIGURE, required=True)


async def test_the_builder_reads_every_kind_of_option() -> None:
    ran: list[tuple[Any, Any, dict[str, Any]]] = []

    async def run(cog: Any, interaction: Any, options: dict[str, Any]) -> None:
        ran.append((cog, interaction, options))

    command = options_command("every", "Every kind of option", EveryKind, run)
    params = {p.name: p for p in command.parameters}
    assert next(iter(params)) == "who" and params["who"].required
    assert len(params["who"].description) == 100 and params["who"].description.endswith("…")
    assert params["who"].autocomplete is True
    assert [p.required for p in command.parameters] == [True] + [False] * 11
    assert params["note"].type is discord.AppCommandOptionType.string
    assert (params["note"].min_value, params["note"].max_value) == (1, 200)
    assert params["roll"].type is discord.AppCommandOptionType.integer
    assert (params["roll"].min_value, params["roll"].max_value) == (2, None)
    assert params["inches"].type is discord.AppCommandOptionType.number
    assert (params["inches"].min_value, params["inches"].max_value) == (None, None)
    assert params["sure"].type is discord.AppCommandOptionType.boolean
    assert [c.value for c in params["mode"].choices] == ["a", "b", "c"] and params["mode"].autocomplete is False
    assert params["file"].type is discord.AppCommandOptionType.attachment
    assert (params["at"].max_value, params["at"].autocomplete) == (40, False)
    completing = command._params  # discord.py's own record of each option's completion
    completions = {n: getattr(completing[n].autocomplete, "__name__", None) for n in ("side", "kind", "entry", "enemy")}
    assert completions == {
        "side": side_autocomplete.__name__,
        "kind": kind_autocomplete.__name__,
        "entry": roster_autocomplete.__name__,
        "enemy": figure_autocomplete.__name__,
    }
    assert params["note"].description == "Free text"

    cog, interaction = object(), object()
    await command.callback(cog, interaction, who="Rossi", roll=3)  # type: ignore[arg-type]
    [(got_cog, got_interaction, options)] = ran
    assert got_cog is cog and got_interaction is interaction
    assert list(options) == [f.name for f in EveryKind.__dataclass_fields__.values()]
    assert options["who"] == "Rossi" and options["roll"] == 3 and options["note"] is None
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        await command.callback(cog, interaction, who="Rossi", nope=1)


async def test_an_option_python_cannot_name_is_renamed_for_the_callback_only() -> None:
    """Discord shows the option's own name; the callback takes it under another (as with NSR's
    class:, a Python keyword)."""

    @dataclass(frozen=True, kw_only=True)
    class Clashing(Params):
        interaction: str | None = option("Named like the callback's own parameter")

    ran: list[dict[str, Any]] = []

    async def run(cog: Any, interaction: Any, options: dict[str, Any]) -> None:
        ran.append(options)

    command = options_command("clash", "An option named interaction", Clashing, run)
    [param] = command.parameters
    assert (param.display_name, param.name) == ("interaction", "option_0")
    assert command.to_dict(tree())["options"][0]["name"] == "interaction"
    await command.callback(object(), object(), option_0="x")  # type: ignore[arg-type]
    assert ran == [{"interaction": "x"}]


def test_too_many_choices_are_refused_when_built() -> None:
    @dataclass(frozen=True, kw_only=True)
    class Many(Params):
        pick: str | None = option("Too many", choices=[f"c{n}" for n in range(26)])

    async def run(cog: Any, interaction: Any, options: dict[str, Any]) -> None: ...

    with pytest.raises(ValueError, match="1 to 25 choices"):
        options_command("many", "Too many choices", Many, run)


def test_the_shared_groups_are_built_with_their_subgroups_files_choices_and_completions() -> None:
    """Every command of the table is on Discord, where its path says; a file is an attachment, a
    labelled choice shows its label, and a command's own completion is offered."""
    table = command_table()
    built_cogs = cogs(table)
    assert all(isinstance(cog, CommandsCog) for cog in built_cogs)
    on_discord: dict[str, app_commands.Command[Any, ..., Any]] = {}
    for cog in built_cogs:
        group = cog.__cog_app_commands_group__
        for top in [group] if group is not None else cog.get_app_commands():
            walk = top.walk_commands() if isinstance(top, app_commands.Group) else [top]
            on_discord.update({c.qualified_name: c for c in walk if isinstance(c, app_commands.Command)})
            assert limit_problems(top.to_dict(tree())) == [], top.name
    assert sorted(on_discord) == sorted(table)
    rules_set = on_discord["campaign rules set"]
    assert rules_set.parent is not None and rules_set.parent.description == "The campaign's house rules"
    [file] = rules_set.parameters
    assert file.type is discord.AppCommandOptionType.attachment and file.required
    ruleset = on_discord["campaign new"].get_parameter("ruleset")
    assert ruleset is not None
    assert [(c.name, c.value) for c in ruleset.choices] == [(title, slug) for slug, (_, title) in RULESETS.items()]
    for name, command in table.items():
        for completed in command.completes:
            parameter = on_discord[name].get_parameter(completed)
            assert parameter is not None and parameter.autocomplete, (name, completed)


async def test_a_built_command_runs_its_declaration_and_delivers_the_reply(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ruleset's command hands its options, every declared one, to the declared command's run."""
    ran: list[tuple[str, dict[str, Any]]] = []

    async def run(self: Any, app: Any, caller: Any, values: dict[str, Any]) -> str:
        ran.append((self.name, values))
        return "the reply"

    delivered: list[Any] = []

    async def deliver(interaction: Any, reply: Any) -> None:
        delivered.append(reply)

    monkeypatch.setattr(Command, "run", run)
    monkeypatch.setattr(slash, "deliver", deliver)
    monkeypatch.setattr(slash, "app_of", lambda interaction: "the app")
    monkeypatch.setattr(slash, "caller_of", lambda interaction: "the caller")
    move = built("ssg").get_command("move")
    assert isinstance(move, app_commands.Command) and isinstance(move.binding, CommandsCog)
    await move.callback(move.binding, object(), figure="Rossi", distance=2.0)  # type: ignore[arg-type]
    assert ran == [
        ("ssg move", {"figure": "Rossi", "to": None, "toward": None, "via": None, "distance": 2.0, "contact": None})
    ]
    assert delivered == ["the reply"]


def test_next_moves_read_the_specs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick move is the PASS spec; a figure's moves are the specs naming their acting option,
    filled with the figure wherever the option stands (here after a required one)."""

    @dataclass(frozen=True, kw_only=True)
    class Fire(Params):
        target: str = option("The enemy", Kind.ENEMY, required=True)
        gun: str = option("The gun's crew", Kind.FIGURE, required=True)
        range: float | None = option("Inches", Kind.NUMBER)

    def handler(ctx: Any, p: Any) -> None: ...

    specs = spec_table(
        ActionSpec("fire", "Fire a gun", Fire, handler, acting="gun"),
        ActionSpec("done", "End the turn", NoParams, handler, role=Role.PASS),
        ActionSpec("answer", "Answer", NoParams, handler, role=Role.ANSWER),
    )
    group = app_commands.Group(name="toy", description="A toy ruleset")
    for spec in specs.values():
        declared = Command(("toy", spec.name), spec.sentence, spec.params, ruleset="toy", role=spec.role)
        group.add_command(command_slash(declared))
    client = SimpleNamespace(tree=SimpleNamespace(get_command=lambda name: group if name == "toy" else None))
    monkeypatch.setattr(next_moves, "specs_of", lambda slug: specs if slug == "toy" else {})
    now = SimpleNamespace(allowed=("fire", "done"), accepts=lambda name: name in ("fire", "done"))

    assert next_moves.figure_commands(client, "toy", "Big Gun") == '`/toy fire gun:"Big Gun" target:… …`'
    assert [c.name for c in next_moves.quick_moves(client, "toy", now)] == ["done"]  # type: ignore[arg-type]
    assert next_moves.to_type(client, "toy", now) == "Or type /toy fire (/help topic:toy)."  # type: ignore[arg-type]
