"""Random and hostile option values at every command: a result or a short private refusal, never a
traceback, and a refusal changes nothing."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from discord import app_commands
from discord.enums import AppCommandOptionType
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.adapter.client import SkirmishBot
from bot.adapter.errors import BUG_SENTENCE
from bot.app.service import App
from bot.dice import ForcedDice, SeededDice
from bot.store import Store
from bot.store.database import Database, sqlite_url
from tests.cogs.test_permissions import ROLES, snapshot
from tests.named_app import NamedApp
from tests.support import SSG_BLUE, SSG_RED, fake_interaction

NASTY_TEXT = [
    "",
    " ",
    "\u200b",
    "\u200b\u200d\ufeff",
    "@everyone",
    "@here",
    "<@123>",
    "<@&456>",
    "**bold** `code` ~~x~~",
    "x" * 10_000,
    "Rossi\u200b",
    "Big  Jim",
    "🧨" * 50,
    "../../etc/passwd",
    "'; DROP TABLE figures; --",
    "\n\n\n",
    "Nobody",
    "rifle",
    "smg",
    "red",
    "blue",
    "approve",
    "1d6",
    "10000d6",
    "d%",
    "-1",
]
FIGURES = SSG_RED + SSG_BLUE


def value_for(param: app_commands.Parameter) -> st.SearchStrategy:
    kind = param.type
    if param.choices:
        return st.sampled_from([c.value for c in param.choices])
    if kind is AppCommandOptionType.integer:
        return st.one_of(st.integers(-(2**63), 2**63 - 1), st.sampled_from([0, -1, 1, 3, 25, 10**12]))
    if kind is AppCommandOptionType.number:
        return st.one_of(
            st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, -5.0, 4.0, 12.0, 24.0, 1e300])
        )
    if kind is AppCommandOptionType.boolean:
        return st.booleans()
    return st.one_of(st.sampled_from(NASTY_TEXT + FIGURES), st.text(max_size=80))


def all_commands(bot: SkirmishBot) -> list[app_commands.Command]:
    found = []
    for item in bot.tree.get_commands():
        found.extend(item.walk_commands() if isinstance(item, app_commands.Group) else [item])
    return [c for c in found if isinstance(c, app_commands.Command)]


@st.composite
def calls(draw, commands: list[app_commands.Command]):
    command = draw(st.sampled_from(commands))
    options = {}
    for param in command.parameters:
        if param.required or draw(st.booleans()):
            options[param.name] = draw(value_for(param))
    role = draw(st.sampled_from(list(ROLES)))
    return command.qualified_name, options, role


async def run_one(template_path: Path, workdir: Path, name: str, options: dict, role: str) -> None:
    path = workdir / "hostile.sqlite3"
    shutil.copyfile(template_path, path)
    database = await Database.open(sqlite_url(path), upgrade=False)
    try:
        app = NamedApp(Store(database), lambda: ForcedDice(fallback=SeededDice(2)))
        bot = SkirmishBot(app)
        await bot.load_cogs()

        async def not_owner(user) -> bool:
            return False

        bot.is_owner = not_owner
        before = await snapshot(database)
        guild = {"guild": 999} if role == "other guild" else {}
        interaction = fake_interaction(bot, ROLES[role], role, **guild)
        cmd = next(c for c in all_commands(bot) if c.qualified_name == name)
        interaction.command = cmd
        try:
            await cmd.callback(cmd.binding, interaction, **options)
        except Exception as exc:
            try:
                raise app_commands.CommandInvokeError(cmd, exc) from exc
            except app_commands.CommandInvokeError as wrapped:
                await bot.tree.on_error(interaction, wrapped)
        [sent] = interaction.sent
        embed = sent["embeds"][0]
        assert embed.description != BUG_SENTENCE, (name, options, role)
        event(f"{name}: {'refused' if embed.title == 'Not done' else 'done'}")
        if embed.title == "Not done":
            assert sent["ephemeral"] is True
            assert 0 < len(embed.description) <= 300 and "\n" not in embed.description
            assert await snapshot(database) == before
        assert sent["allowed_mentions"].everyone is False
    finally:
        await database.close()


@pytest.fixture
def command_names(tmp_path_factory) -> list[app_commands.Command]:
    async def build():
        bot = SkirmishBot(App(None, lambda: None))  # type: ignore[arg-type]
        await bot.load_cogs()
        return [c for c in all_commands(bot) if c.qualified_name != "admin sync"]

    return asyncio.run(build())


def test_hostile_values_at_every_command(template: Path, command_names, tmp_path_factory) -> None:
    workdir = tmp_path_factory.mktemp("hostile")

    @settings(
        max_examples=250,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(calls(command_names))
    def check(call) -> None:
        asyncio.run(run_one(template, workdir, *call))

    check()
