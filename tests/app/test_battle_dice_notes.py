"""A battle says plainly when its dice cannot all be checked: on the card of the first action whose
dice were forced, in its status, and on its end card; a seeded battle says so from its start."""

from __future__ import annotations

from bot.app.service import App
from bot.dice import ForcedDice, SecureDice, SeededDice
from bot.store import Store
from bot.store.database import Database
from tests.named_app import NamedApp
from tests.support import GM, RED, caller, ssg_campaign


async def _table(app: App) -> tuple[dict[str, str], int]:
    """A started SSG battle on a table: the start card's fields and the player who moves first."""
    await ssg_campaign(app, "table", "Test")
    started = await app.game_start(caller(GM, "Gina"))
    return {name: value for name, value, _ in started.cards[0].fields}, started.ping_user_ids[0]


def _fields(reply: object) -> dict[str, str]:
    return {name: value for card in reply.cards for name, value, _ in card.fields}  # type: ignore[attr-defined]


async def test_forcing_a_die_mid_battle_is_said_once_then_in_status_and_at_the_end(database: Database) -> None:
    forced = ForcedDice(fallback=SecureDice())
    app = NamedApp(Store(database), lambda: forced)
    fields, first_player = await _table(app)
    start = fields["Provable dice"]
    assert start.startswith("Commitment `") and "cannot be checked" not in start

    status = _fields(await app.game_status(caller(RED)))["Provable dice"]
    assert "cannot be checked" not in status
    first = await app.roll(caller(GM, "Gina"), "1d6", "provable")  # from the stream: nothing to say
    assert "forced" not in str(first.cards)

    await app.act(caller(first_player), "ssg", "next", {}, "/ssg next")  # no melee: on to shooting, no dice
    forced.push_dice([6])
    shooter, target = ("Rossi", "Bo") if first_player == RED else ("Bo", "Rossi")
    shot = await app.act(
        caller(first_player), "ssg", "shoot", {"shooter": shooter, "target": target, "range": 10, "los": "clear"}, ""
    )
    said = _fields(shot)["Provable dice"]
    assert said == "This action's dice were forced at the terminal: this battle's dice can no longer all be checked."
    forced.push_dice([1])
    other, second = ("Ada", "Bert") if first_player == RED else ("Bert", "Ada")
    again = await app.act(
        caller(first_player), "ssg", "shoot", {"shooter": other, "target": second, "range": 10, "los": "clear"}, ""
    )
    assert "Provable dice" not in _fields(again)  # said once

    status = _fields(await app.game_status(caller(RED)))["Provable dice"]
    assert status.endswith("But some of its dice were forced at the terminal: they cannot be checked.")
    ended = await app.game_end(caller(GM, "Gina"))
    end_card = next(card for card in ended.cards if card.title == "Dice of battle 1")
    assert end_card.description.startswith(
        "Some of its dice were forced at the terminal, so they cannot all be checked."
    )


async def test_a_seeded_battle_says_so_on_its_start_card(database: Database) -> None:
    app = NamedApp(Store(database), lambda: SeededDice(7))
    start = (await _table(app))[0]["Provable dice"]
    assert start.endswith("But its dice were seeded at the terminal (repeatable, not secret): they cannot be checked.")


async def test_a_won_battle_whose_secret_is_revealed_cannot_be_reopened_by_undo(database: Database) -> None:
    from bot.app.replies import Refusal

    forced = ForcedDice(fallback=SecureDice())
    app = NamedApp(Store(database), lambda: forced)
    fields, first_player = await _table(app)
    assert "cannot be checked" not in fields["Provable dice"]  # every die from the secret so far
    await app.act(caller(first_player), "ssg", "next", {}, "/ssg next")
    async with app.store.transaction() as u:  # as if the battle had just been won
        campaign = await u.campaigns.here(caller(GM).guild_id, caller(GM).channel_id)
        assert campaign is not None
        game = await u.games.in_progress(campaign.id, lock=True)
        assert game is not None and game.dice_note is None
        await u.games.set_outcome(game, status="ended", winner="red", ended_at=None)

    for who in (first_player, GM):
        try:
            await app.game_undo(caller(who))
        except Refusal as refused:
            assert "its dice secret is revealed" in refused.message
        else:
            raise AssertionError("the undo of a won, revealed battle was not refused")
