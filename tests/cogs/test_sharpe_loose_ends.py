"""Loose ends of Sharpe's Skirmish found in play (issue 19), through the loopback Discord."""

from __future__ import annotations

from bot.app.service import App
from bot.dice import ForcedDice
from tests.cogs.test_cogs import invoke
from tests.cogs.test_ssg_loose_ends import refused, said
from tests.support import BLUE, GM, RED, caller, join


async def table_game(app: App, forced: ForcedDice) -> None:
    """Sharpe and Harris against Dubois at a table; the order is Sharpe, Harris, Dubois."""
    await app.campaign_new(caller(GM, "Gina"), "Hougoumont", "sharpe", "table")
    await join(app, RED, "Rita", "british")
    await join(app, BLUE, "Bob", "french")
    await app.roster_add(caller(RED, "Rita"), "Sharpe", "rifle_officer", stats="I=6 D=5 S=5 C=5 F=10")
    await app.roster_add(caller(RED, "Rita"), "Harris", "rifleman", stats="I=5 D=4 S=4 C=4 F=8")
    await app.roster_add(caller(BLUE, "Bob"), "Dubois", "voltigeur", stats="I=3 D=4 S=3 C=3")
    forced.push_dice([6, 6, 6])  # the order: Sharpe 12, Harris 11, Dubois 9
    await app.game_start(caller(GM, "Gina"))


async def sharpe_wounded_by_a_riposte(bot, app: App, forced: ForcedDice) -> str:
    """Sharpe attacks Dubois, whose riposte wounds him: his turn ends by itself, and Harris is to act."""
    await table_game(app, forced)
    await invoke(bot, "sharpe attack", RED, "Rita", defender="Dubois")
    forced.push_dice([1, 6, 1, 1])  # C 5 + 1 against riposte C 3 + 6; legs, light
    answered = said(await invoke(bot, "decide", BLUE, "Bob", choice="riposte"))
    assert "Sharpe's turn ends: he is wounded this bound." in answered
    assert "Bound 1 · Harris (british) to act." in answered
    return answered


async def test_a_done_meant_for_a_man_whose_turn_ended_by_itself_ends_nobody_else(bot, app, forced) -> None:
    await sharpe_wounded_by_a_riposte(bot, app, forced)
    meant = await invoke(bot, "sharpe done", RED, "Rita")
    assert meant.sent[0]["ephemeral"] is False and not meant.sent[0]["content"], "nobody new to ping"
    assert said(meant).splitlines()[2] == (
        "Sharpe's turn had already ended (he is wounded this bound), so this done ends nobody's: "
        "it is Harris's turn now. /sharpe done again ends his."
    )
    status = said(await invoke(bot, "game status", RED, "Rita"))
    assert "Character: Harris" in status

    again = said(await invoke(bot, "sharpe done", RED, "Rita"))
    assert "Harris ends his turn." in again and "Dubois (french) to act" in again


async def test_a_done_naming_the_man_who_acts_now_ends_his_turn_at_once(bot, app, forced) -> None:
    await sharpe_wounded_by_a_riposte(bot, app, forced)
    named = refused(await invoke(bot, "sharpe done", RED, "Rita", figure="Sharpe"))
    assert named == "Sharpe's turn has already ended; it is Harris's turn (british) now."
    ended = said(await invoke(bot, "sharpe done", RED, "Rita", figure="Harris"))
    assert "Harris ends his turn." in ended and "Dubois (french) to act" in ended


async def test_any_other_action_first_makes_done_end_the_new_mans_turn(bot, app, forced) -> None:
    await sharpe_wounded_by_a_riposte(bot, app, forced)
    await invoke(bot, "sharpe move", RED, "Rita", pace="walk", distance=1.0)
    ended = said(await invoke(bot, "sharpe done", RED, "Rita"))
    assert "Harris ends his turn." in ended


async def test_an_aimed_shot_in_the_first_bound_is_refused_for_the_bound_not_a_move(bot, app, forced) -> None:
    await table_game(app, forced)
    await invoke(bot, "sharpe done", RED, "Rita")  # Sharpe; Harris has not moved
    refusal = refused(await invoke(bot, "sharpe shoot", RED, "Rita", target="Dubois", range=10.0, aimed=True))
    assert refusal == (
        "Nobody aims in the first bound: an aimed shot needs a whole move standing still first, "
        "so Harris may aim from bound 2 if he does not move now."
    )


async def test_a_wound_card_at_a_table_says_when_he_had_no_room_to_recoil(bot, app, forced) -> None:
    await table_game(app, forced)
    await invoke(bot, "sharpe attack", RED, "Rita", defender="Dubois", no_room=True)
    forced.push_dice([6, 1, 1, 1])  # C 5 + 6 against parry C 3 + 1: legs; the wound D6
    hit = said(await invoke(bot, "decide", BLUE, "Bob", choice="parry"))
    assert "+1 cannot recoil" in hit
    card = "Dubois: serious wound to the legs — no further action or movement this bound; can only crawl"
    assert f"{card} for the rest of the game; has no room to recoil." in hit and "recoils" not in hit


async def test_target_priority_is_said_once_in_campaign_info_not_in_every_status(bot, app, forced) -> None:
    await table_game(app, forced)
    info = await invoke(bot, "campaign info", RED, "Rita")
    fields = {f.name: f.value for f in info.sent[0]["embeds"][0].fields}
    assert fields["Target priority"].startswith("Riflemen go for officers first; otherwise shoot the nearest enemy")
    assert "Target priority" not in said(await invoke(bot, "game status", RED, "Rita"))
