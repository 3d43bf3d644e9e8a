"""/yasg through its cog: a look is no action to take back (/game undo after it undoes the move
before it), and the board picture's key names every terrain kind and every figure."""

from __future__ import annotations

from bot.adapter.client import SkirmishBot
from bot.app.service import App
from bot.dice import ForcedDice
from bot.render.grid_image import _Painter
from rules import get_engine
from tests.app.test_maps import game_state
from tests.cogs.test_cogs import invoke
from tests.support import BLUE, GM, RED, caller, join


async def yasg_duel(bot: SkirmishBot, app: App, forced: ForcedDice) -> None:
    """Sharpe (british, C5) and Ducos (french, C2) on a 6 by 6 board with a house and a wood; turn
    1's movement phase, the British moving first."""
    await app.campaign_new(caller(GM, "Gina"), "Farm", "yasg", "table")
    await join(app, RED, "Rita", "british")
    await join(app, BLUE, "Bob", "french")
    await app.roster_add(caller(RED, "Rita"), "Sharpe", "A", stats="leader=yes")
    await app.roster_add(caller(BLUE, "Bob"), "Ducos", "B", stats="leader=yes")
    await app.game_start(caller(GM, "Gina"))
    await invoke(bot, "yasg board", GM, "Gina", width=6, height=6)
    await invoke(bot, "yasg terrain", GM, "Gina", squares="E2", kind="building")
    await invoke(bot, "yasg terrain", GM, "Gina", squares="A4", kind="wood")
    await invoke(bot, "yasg place", RED, "Rita", figure="Sharpe", square="C5", facing="n")
    await invoke(bot, "yasg place", BLUE, "Bob", figure="Ducos", square="C2", facing="s")
    await invoke(bot, "yasg next", GM, "Gina")
    forced.push_dice([6, 2])
    await invoke(bot, "yasg next", GM, "Gina")


async def test_undo_after_a_look_takes_back_the_move_before_it(bot: SkirmishBot, app: App, forced: ForcedDice) -> None:
    await yasg_duel(bot, app, forced)
    before = await game_state(app)
    await invoke(bot, "yasg move", RED, "Rita", figure="Sharpe", to="C4")
    looked = await invoke(bot, "yasg look", RED, "Rita", figure="Sharpe", target="Ducos")
    assert "Sharpe (C4, facing N) → Ducos (C2)" in looked.sent[0]["embeds"][0].description
    undone = await invoke(bot, "game undo", RED, "Rita")
    assert "`/yasg move figure:Sharpe to:C4` is taken back" in undone.sent[0]["embeds"][0].description
    assert await game_state(app) == before


async def test_the_board_pictures_key_names_terrain_and_figures(bot: SkirmishBot, app: App, forced: ForcedDice) -> None:
    await yasg_duel(bot, app, forced)
    status = await invoke(bot, "game status", RED, "Rita")
    [sent] = status.sent
    assert [f.filename for f in sent["files"]] == ["board.png"]
    grid = get_engine("yasg").board(get_engine("yasg").load_state(await game_state(app))).grid
    assert grid is not None
    key = [text for row in _Painter(grid).key_rows for _, text in row]
    assert key == ["british", "french", "leader", "building", "wood", "1 Sharpe (A)", "2 Ducos (B)"]
