"""/sharpe targets: the rules' target priority for one shooter, measured on the battle's map, seen only
by the asker, changing nothing (A-SHARPE-50); at a table, one sentence that it needs the map."""

from __future__ import annotations

from bot.app.service import App
from bot.dice import ForcedDice
from tests.cogs.test_cogs import invoke
from tests.support import BLUE, GM, RED, STRANGER, caller, join


async def sharpe_game(app: App, forced: ForcedDice, battlefield: str | None = None) -> None:
    """Harris against Dubois and Leroux on the farm (or at a table), every man placed."""
    await app.campaign_new(caller(GM, "Gina"), "The Farm", "sharpe", battlefield)
    await join(app, RED, "Rita", "british")
    await join(app, BLUE, "Bob", "french")
    await app.roster_add(caller(RED, "Rita"), "Harris", "rifleman", stats="I=4 D=4 S=3 C=3 F=9")
    await app.roster_add(caller(BLUE, "Bob"), "Dubois", "voltigeur", stats="I=4 D=3 S=3 C=3")
    await app.roster_add(caller(BLUE, "Bob"), "Leroux", "officer", stats="I=5 D=4 S=4 C=5 F=7")
    if battlefield == "table":
        forced.push_dice([6, 4, 1])
        await app.game_start(caller(GM, "Gina"))
        return
    await app.map_new(caller(GM, "Gina"), "farm")
    await app.game_start(caller(GM, "Gina"))
    await app.map_place(caller(RED, "Rita"), "Harris", "5,18")
    await app.map_place(caller(BLUE, "Bob"), "Dubois", "43,18")
    forced.push_dice([6, 4, 1])
    await app.map_place(caller(BLUE, "Bob"), "Leroux", "43,13")


async def log_text(bot) -> str:
    log = await invoke(bot, "game log", RED)
    return log.sent[0]["embeds"][0].description


async def test_targets_are_listed_privately_in_the_rules_order_and_nothing_changes(bot, app, forced) -> None:
    await sharpe_game(app, forced)
    before = await log_text(bot)
    interaction = await invoke(bot, "sharpe targets", BLUE, "Bob", shooter="harris")
    [sent] = interaction.sent
    assert sent["ephemeral"] is True
    embed = sent["embeds"][0]
    assert embed.title == "Targets for Harris (Baker rifle)"
    assert embed.description.splitlines() == [
        "1. Leroux: 38.3″, normal range, in the open — an officer: riflemen knock out officers first",
        "2. Dubois: 38.0″, normal range, in the open — the nearest",
    ]
    assert "nearest enemy" in embed.footer.text and "officers first" in embed.footer.text
    assert await log_text(bot) == before  # asking recorded no action and rolled nothing


async def test_a_bad_shooter_gets_one_private_sentence(bot, app, forced) -> None:
    await sharpe_game(app, forced)
    interaction = await invoke(bot, "sharpe targets", RED, shooter="Harris", weapon="pistol")
    [sent] = interaction.sent
    assert sent["ephemeral"] is True and sent["embeds"][0].description == "Harris carries no pistol to fire."
    stranger = await invoke(bot, "sharpe targets", STRANGER, shooter="Harris")
    assert "not in this campaign" in stranger.sent[0]["embeds"][0].description


async def test_at_a_table_targets_say_they_need_the_map(bot, app, forced) -> None:
    await sharpe_game(app, forced, "table")
    interaction = await invoke(bot, "sharpe targets", RED, shooter="Harris")
    [sent] = interaction.sent
    assert sent["ephemeral"] is True
    assert sent["embeds"][0].description == (
        "Target priority is measured on the bot's map, and this battle is played on a table."
    )


async def test_odds_of_a_question_are_refused(bot, app, forced) -> None:
    await sharpe_game(app, forced)
    interaction = await invoke(bot, "odds", RED, action="sharpe targets shooter:Harris")
    [sent] = interaction.sent[-1:]
    assert "a question, not an action with dice" in sent["embeds"][0].description
