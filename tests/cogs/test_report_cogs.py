"""/game report, /game log's pages and buttons, and /roll secret through the real cogs: who may,
what is attached, and buttons that work after a restart."""

from __future__ import annotations

import asyncio
from unittest.mock import AsyncMock

import discord
import pytest
from discord import app_commands

from bot.adapter import delivery
from bot.adapter.client import SkirmishBot
from bot.adapter.delivery import NEWER, OLDER, LogPageButton
from bot.app.service import App
from bot.store import Store
from tests.cogs.test_cogs import command, invoke
from tests.cogs.test_permissions import NO_CAMPAIGN, OK, ROLES, snapshot
from tests.named_app import NamedApp
from tests.support import BLUE, GM, RED, STRANGER, caller, fake_interaction, ssg_table

SECRET_ONLY = "Only the game master may roll in secret."
TABLE = [
    ("game report", {}, [OK, OK, OK, OK, NO_CAMPAIGN]),
    ("game log", {"page": 1, "count": 1}, [OK, OK, OK, OK, NO_CAMPAIGN]),
    (
        "game log",
        {"page": 9},
        ["there is no page 9", "there is no page 9", "there is no page 9", "there is no page 9", NO_CAMPAIGN],
    ),
    ("game log", {"battle": 99}, ["no battle 99", "no battle 99", "no battle 99", "no battle 99", NO_CAMPAIGN]),
    ("roll", {"dice": "1d6", "secret": True}, [OK, SECRET_ONLY, SECRET_ONLY, SECRET_ONLY, SECRET_ONLY]),
]
CASES = [
    (name, options, role, expected)
    for name, options, outcomes in TABLE
    for role, expected in zip(ROLES, outcomes, strict=True)
]


@pytest.mark.parametrize("name,options,role,expected", CASES, ids=[f"{n}:{sorted(o)}:{r}" for n, o, r, _ in CASES])
async def test_who_may_report_page_and_roll_in_secret(
    table, name: str, options: dict, role: str, expected: str
) -> None:
    bot, database = table
    before = await snapshot(database)
    guild = {"guild": 999} if role == "other guild" else {}
    interaction = fake_interaction(bot, ROLES[role], role, **guild)
    cmd = command(bot, name)
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
    if expected == OK:
        assert embed.title != "Not done", embed.description
        if name == "roll":
            assert sent["ephemeral"] is True and embed.title.startswith("🔒 Secret roll")
    else:
        assert sent["ephemeral"] is True and embed.title == "Not done"
        assert expected in embed.description and len(embed.description) < 200
        assert await snapshot(database) == before


async def test_the_report_is_attached_privately_in_progress_and_publicly_after(bot, app, forced) -> None:
    await ssg_table(app, forced)
    going = await invoke(bot, "game report", BLUE, "Bob")
    [sent] = going.sent
    assert sent["ephemeral"] is True
    [attached] = sent["files"]
    assert isinstance(attached, discord.File) and attached.filename == "battle-1.md"
    assert attached.fp.read().decode().startswith("# Test — battle 1\n")
    assert sent["embeds"][0].title == "Report of battle 1" and sent["allowed_mentions"].everyone is False
    await invoke(bot, "game end", GM, "Gina")
    over = await invoke(bot, "game report", STRANGER, "Sam", battle=1)
    [sent] = over.sent
    assert sent["ephemeral"] is False and sent["files"][0].filename == "battle-1.md"
    assert "Ended by the game master" in sent["files"][0].fp.read().decode()


async def test_a_slow_report_is_deferred_privately_and_posted_after(bot, app, forced, monkeypatch) -> None:
    await ssg_table(app, forced)
    await app.game_end(caller(GM, "Gina"))
    real = app.reports.game_report

    async def slow(*args, **kwargs):
        await asyncio.sleep(0.05)
        return await real(*args, **kwargs)

    monkeypatch.setattr(app.reports, "game_report", slow)
    cmd = command(bot, "game report")
    monkeypatch.setattr(delivery, "BEFORE_DEFER", 0.001)
    interaction = fake_interaction(bot, RED, "Rita")

    async def defer(**kwargs) -> None:
        interaction.response.is_done.return_value = True

    interaction.response.defer = AsyncMock(side_effect=defer)
    await cmd.callback(cmd.binding, interaction)
    interaction.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
    note, posted = interaction.sent  # the note fills the private "thinking" message; the report follows
    assert note["ephemeral"] is True and "follows in the channel" in note["content"]
    assert posted["ephemeral"] is False and posted["files"][0].filename == "battle-1.md"


async def test_the_log_has_newer_and_older_buttons_when_it_has_pages(bot, app, forced) -> None:
    await ssg_table(app, forced)
    forced.push_dice([2] * 6)
    for n in range(6):
        await app.roll(caller(RED, "Rita"), "1d6", f"roll {n}")
    one = await invoke(bot, "game log", RED, "Rita", count=25)
    [sent] = one.sent
    assert sent["ephemeral"] is True and "view" not in sent  # a single page: no buttons
    first = await invoke(bot, "game log", RED, "Rita", count=3)
    [sent] = first.sent
    view = sent["view"]
    assert view.timeout is None and view.is_persistent()
    assert [(c.item.label, c.custom_id, c.item.disabled) for c in view.children] == [
        (NEWER, "log:1:0:3", True),
        (OLDER, "log:1:2:3", False),
    ]
    assert sent["embeds"][0].footer.text.startswith("Page 1 of 3 · actions 7–5")
    last = await invoke(bot, "game log", RED, "Rita", count=3, page=3)
    assert [(c.custom_id, c.item.disabled) for c in last.sent[0]["view"].children] == [
        ("log:1:2:3", False),
        ("log:1:4:3", True),
    ]


async def click(bot: SkirmishBot, user: int, custom_id: str):
    """What discord.py does on a click: match the template, build the item, run its callback."""
    match = LogPageButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    interaction = fake_interaction(bot, user)
    item = await LogPageButton.from_custom_id(interaction, LogPageButton(0, 0, 0).item, match)
    await item.callback(interaction)
    return interaction


async def test_a_fresh_bot_turns_the_page_of_an_old_log_as_its_reader_may_see_it(app: App, database, forced) -> None:
    await ssg_table(app, forced)
    forced.push_dice([6, 6, 6, 6])
    await app.roll(caller(GM, "Gina"), "1d6", "the bridge collapses", secret=True)
    for n in range(3):
        await app.roll(caller(RED, "Rita"), "1d6", f"roll {n}")
    restarted = SkirmishBot(NamedApp(Store(database), lambda: forced))  # a new process would build exactly this
    for user, sees in ((RED, False), (GM, True)):
        interaction = await click(restarted, user, "log:1:2:2")
        interaction.response.edit_message.assert_awaited_once()
        kwargs = interaction.response.edit_message.await_args.kwargs
        [embed] = kwargs["embeds"]
        assert embed.footer.text.startswith("Page 2 of 3 · actions 3–2")
        assert ("the bridge collapses" in embed.description) is sees
        assert ("rolled in secret" in embed.description) is not sees
        assert [c.custom_id for c in kwargs["view"].children] == ["log:1:1:2", "log:1:3:2"]
        assert kwargs["allowed_mentions"].everyone is False


async def test_a_button_for_a_page_or_battle_that_is_not_there_is_refused_privately(app: App, forced) -> None:
    await ssg_table(app, forced)
    bot = SkirmishBot(app)
    for custom_id, sentence in (
        ("log:1:7:10", "there is no page 7"),
        ("log:42:1:10", "There is no such battle in this campaign."),
        ("log:1:0:10", "Pages start at 1"),
    ):
        interaction = await click(bot, RED, custom_id)
        [sent] = interaction.sent
        assert sent["ephemeral"] is True and sentence in sent["embeds"][0].description
        interaction.response.edit_message.assert_not_awaited()


@pytest.mark.parametrize(
    "custom_id", ["log:1:2", "log:x:1:1", "log:1:1:100", "decision:1:0", "log:1:1:1:1", "log::1:1"]
)
def test_foreign_custom_ids_are_not_log_buttons(custom_id: str) -> None:
    assert LogPageButton.__discord_ui_compiled_template__.fullmatch(custom_id) is None


async def test_the_commands_declare_their_options(bot) -> None:
    report = command(bot, "game report")
    assert [(p.name, p.required, p.min_value) for p in report.parameters] == [("battle", False, 1)]
    log = command(bot, "game log")
    assert [(p.name, p.required) for p in log.parameters] == [("page", False), ("count", False), ("battle", False)]
    roll = command(bot, "roll")
    secret = next(p for p in roll.parameters if p.name == "secret")
    assert secret.type is discord.AppCommandOptionType.boolean and secret.required is False
