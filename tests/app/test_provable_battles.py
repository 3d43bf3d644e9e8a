"""Provable dice at the application layer, on a real migrated database (SQLite, and PostgreSQL when
one answers), with the dice Discord gets (``SecureDice``), so every die comes from the battle's
stream.

What these tests prove:

* draw numbers run 0, 1, 2, … with none repeated or missing across the start, the actions, a free
  roll in the battle, the game master's secret roll and the rolls after the battle; the game row's
  ``dice_next`` is the count, and the report's JSON verifies;
* an undone action's draws stay in the report's JSON and the next action gets new draw numbers:
  ``dice_next`` does not go back on ``/game undo``;
* a battle begun before provable dice (its game row without a secret, as migration 0006 leaves a
  battle in progress) finishes on the old dice: its status and end card say so, nothing is drawn
  from any stream, and ``skirmish-gm verify`` on its report says it cannot be checked;
* a database at revision 0005 with a battle in progress, upgraded to head, goes on playing it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, select, update

from bot.app.replies import Refusal, Reply
from bot.app.service import App
from bot.dice import SecureDice
from bot.provable import Draw, commitment, verify
from bot.store import Store
from bot.store.database import Database, downgrade, make_engine, upgrade
from bot.store.schema import ActionRecord, Game, RollRecord
from bot.verify import documents_in, verify_file
from rules.core import RuleError
from tests.named_app import NamedApp
from tests.orm import orm
from tests.support import BLUE, GM, RED, caller, join, ssg_campaign

OLD_DICE_STATUS = "This battle began before provable dice: it finishes on the old dice, which cannot be checked."
OLD_DICE_END = "This battle began before provable dice: its dice were the old ones and cannot be checked."


def secure_app(database: Database) -> App:
    """An App with the dice Discord gets: in a battle, every die comes from the battle's stream."""
    return NamedApp(Store(database), lambda: SecureDice())


def fields(reply: Reply) -> dict[str, str]:
    return {name: value for card in reply.cards for name, value, _ in card.fields}


async def ssg_battle(app: App) -> Reply:
    """An SSG campaign, six rifles a side, the battle started (the roll-off from the stream)."""
    await ssg_campaign(app, "table")
    return await app.game_start(caller(GM, "Gina"))


async def sharpe_battle(app: App) -> Reply:
    """A Sharpe campaign, two characters a side (stats given: nothing rolled at recruiting)."""
    await app.campaign_new(caller(GM, "Gina"), "The Chosen Men", "sharpe", "table")
    await join(app, RED, "Rita", "british")
    await join(app, BLUE, "Bob", "french")
    await app.roster_add(caller(RED, "Rita"), "Sharpe", "rifle_officer", stats="I=6 D=5 S=5 C=6 F=10")
    await app.roster_add(caller(RED, "Rita"), "Harper", "rifle_sergeant", stats="I=5 D=4 S=6 C=5 F=10")
    await app.roster_add(caller(BLUE, "Bob"), "Leroux", "officer", stats="I=5 D=4 S=4 C=5 F=7")
    await app.roster_add(caller(BLUE, "Bob"), "Dubois", "voltigeur", stats="I=4 D=3 S=3 C=3")
    return await app.game_start(caller(GM, "Gina"))


async def by_whoever_may(
    app: App, ruleset: str, action: str, tries: Mapping[int, Mapping[str, Any]], command: str
) -> tuple[int, Reply]:
    """The action by the first player it is not refused to (the dice decided whose turn it is)."""
    refused = []
    for user, params in tries.items():
        try:
            return user, await app.act(caller(user), ruleset, action, dict(params), command)
        except (Refusal, RuleError) as exc:
            refused.append(str(exc))
    raise AssertionError(f"{command} was refused to everyone: {refused}")


async def game_row(database: Database) -> Game:
    async with orm(database) as s:
        game = await s.scalar(select(Game).order_by(Game.id.desc()))
        assert game is not None
        return game


async def report_document(app: App, tmp_path: Path, user: int = RED) -> tuple[Path, dict[str, Any]]:
    """The last battle's report, saved as the player gets it, and its dice document."""
    reply = await app.game_report(caller(user))
    [(name, data)] = reply.files
    path = tmp_path / name
    path.write_bytes(data)
    [document] = documents_in(data.decode("utf-8"))
    return path, dict(document)


def checked(document: Mapping[str, Any]) -> tuple[bool, str]:
    draws = [Draw.from_data(d) for d in document["draws"]]
    result = verify(document["secret"], document["commitment"], draws)
    return result.ok, result.summary()


async def stored_draws(database: Database, game_id: int) -> list[int | None]:
    """The draw number of every die and card the log keeps for the game, in the order rolled."""
    async with orm(database) as s:
        rows = await s.execute(
            select(RollRecord.draw)
            .join(ActionRecord, RollRecord.action_id == ActionRecord.id)
            .where(ActionRecord.game_id == game_id)
            .order_by(RollRecord.action_id, RollRecord.seq)
        )
        return [draw for (draw,) in rows]


# --- draw numbers ------------------------------------------------------------------------------------


async def test_draw_numbers_run_on_through_actions_free_rolls_and_the_aftermath(
    database: Database, tmp_path: Path
) -> None:
    app = secure_app(database)
    started = await sharpe_battle(app)
    promised = fields(started)["Provable dice"].split("`")[1]
    initiative = len(started.rolls)
    assert initiative >= 4  # one D6 a character, more on a tie
    assert (await game_row(database)).dice_next == initiative

    tries = {RED: {"target": "Dubois", "range": 10}, BLUE: {"target": "Harper", "range": 10}}
    shooter, shot = await by_whoever_may(app, "sharpe", "shoot", tries, "/sharpe shoot")
    assert shot.rolls
    await app.act(caller(shooter), "sharpe", "done", {}, "/sharpe done")
    after_shot = (await game_row(database)).dice_next
    assert after_shot == initiative + len(shot.rolls)

    free = await app.roll(caller(RED, "Rita"), "2d6", "weather")
    hidden = await app.roll(caller(GM, "Gina"), "1d8", "reinforcements", secret=True)
    assert len(free.rolls) == 2 and len(hidden.rolls) == 1
    assert (await game_row(database)).dice_next == after_shot + 3

    # Dubois is out of action: after the battle he rolls for his life (a D6 from the stream).
    game = await game_row(database)
    state = dict(game.state)
    state["characters"] = [{**c, "out": True} if c["name"] == "Dubois" else c for c in state["characters"]]
    async with orm(database) as s:
        await s.execute(update(Game).where(Game.id == game.id).values(state=state, version=Game.version + 1))
    app = secure_app(database)  # a fresh App: nothing of the old state kept in memory
    ended = await app.game_end(caller(GM, "Gina"))
    fate = [r for r in ended.rolls if "Dubois" in r.reason]
    assert len(fate) == 1, ended.rolls

    # Anyone the shot wounded rolls after the battle too: the aftermath's draws come last, whatever they are.
    total = after_shot + 3 + len(ended.rolls)
    game = await game_row(database)
    assert game.dice_next == total
    assert await stored_draws(database, game.id) == list(range(total))

    path, document = await report_document(app, tmp_path)
    draws = document["draws"]
    assert document["commitment"] == promised == commitment(bytes.fromhex(document["secret"]))
    assert [d["k"] for d in draws] == list(range(total))
    reasons = [d["reason"] for d in draws]
    assert reasons[:initiative] == [r.reason for r in started.rolls]
    assert reasons[initiative : initiative + len(shot.rolls)] == [r.reason for r in shot.rolls]
    assert reasons[after_shot : after_shot + 3] == ["Rita: weather", "Rita: weather", "Gina: reinforcements"]
    assert draws[after_shot + 2]["size"] == 8  # the secret roll, revealed with the rest
    assert reasons[after_shot + 3 :] == [r.reason for r in ended.rolls]
    assert checked(document) == (True, f"All {total} dice and cards match.")
    assert verify_file(path) == (
        0,
        [
            f"Battle 1: all {total} dice and cards match.",
            f"  Commitment {promised}: compare it with the battle's start card, and the {total} draws with its end card.",
        ],
    )


# --- undo --------------------------------------------------------------------------------------------


async def test_an_undone_actions_draws_stay_in_the_log_and_the_next_action_draws_anew(
    database: Database, tmp_path: Path
) -> None:
    app = secure_app(database)
    started = await ssg_battle(app)
    roll_off = len(started.rolls)
    tries: dict[int, dict[str, Any]] = {RED: {}, BLUE: {}}
    mover, _ = await by_whoever_may(app, "ssg", "next", tries, "/ssg next")  # into shooting: no dice
    assert (await game_row(database)).dice_next == roll_off
    shooter, target = ("Rossi", "Bo") if mover == RED else ("Bo", "Rossi")
    shot = {"shooter": shooter, "target": target, "range": 10, "los": "clear"}
    first = await app.act(caller(mover), "ssg", "shoot", shot, "/ssg shoot")
    [first_die] = first.rolls
    before_undo = (await game_row(database)).dice_next
    assert before_undo == roll_off + 1

    undone = await app.game_undo(caller(GM, "Gina"))  # the game master may always take it back
    assert "stay in the log" in undone.cards[0].description
    assert (await game_row(database)).dice_next == before_undo  # the stream does not rewind

    again = await app.act(caller(mover), "ssg", "shoot", shot, "/ssg shoot")
    [second_die] = again.rolls
    assert (await game_row(database)).dice_next == before_undo + 1
    await app.game_end(caller(GM, "Gina"))

    game = await game_row(database)
    assert await stored_draws(database, game.id) == list(range(roll_off + 2))
    _, document = await report_document(app, tmp_path)
    draws = document["draws"]
    assert [d["k"] for d in draws] == list(range(roll_off + 2))
    undone_draw, retaken_draw = draws[roll_off], draws[roll_off + 1]
    assert undone_draw["reason"] == first_die.reason and str(undone_draw["value"]) == first_die.value
    assert retaken_draw["reason"] == second_die.reason and str(retaken_draw["value"]) == second_die.value
    assert checked(document) == (True, f"All {roll_off + 2} dice and cards match.")


# --- battles begun before provable dice ----------------------------------------------------------------


async def forget_the_secret(database: Database) -> Game:
    """The battle as migration 0006 leaves one that was in progress: no secret, no commitment, and
    its dice so far (the roll-off) without draw numbers."""
    game = await game_row(database)
    async with orm(database) as s:
        actions = select(ActionRecord.id).where(ActionRecord.game_id == game.id).scalar_subquery()
        await s.execute(
            update(RollRecord).where(RollRecord.action_id.in_(actions)).values(draw=None, pool=None, position=None)
        )
        await s.execute(
            update(Game)
            .where(Game.id == game.id)
            .values(dice_secret=None, dice_commitment=None, dice_next=0, dice_note=None)
        )
    return await game_row(database)


async def play_on_the_old_dice(app: App, database: Database, tmp_path: Path) -> None:
    """Status, an action that rolls, a free roll, the end and the report of a battle without a secret."""
    status = fields(await app.game_status(caller(RED)))
    assert status["Provable dice"] == OLD_DICE_STATUS

    tries: dict[int, dict[str, Any]] = {RED: {}, BLUE: {}}
    mover, _ = await by_whoever_may(app, "ssg", "next", tries, "/ssg next")
    shooter, target = ("Rossi", "Bo") if mover == RED else ("Bo", "Rossi")
    shot = await app.act(
        caller(mover), "ssg", "shoot", {"shooter": shooter, "target": target, "range": 10, "los": "clear"}, ""
    )
    assert len(shot.rolls) == 1 and shot.rolls[0].draw is None
    rolled = await app.roll(caller(RED, "Rita"), "2d6", "weather")
    assert len(rolled.rolls) == 2 and all(r.draw is None for r in rolled.rolls)
    assert "Free rolls between battles" not in (rolled.cards[0].footer or "")  # the battle's roll, not a stream's

    ended = await app.game_end(caller(GM, "Gina"))
    [dice_card] = [card for card in ended.cards if card.title == "Dice of battle 1"]
    assert dice_card.description == OLD_DICE_END

    game = await game_row(database)
    assert game.dice_secret is None and game.dice_commitment is None and game.dice_next == 0
    assert set(await stored_draws(database, game.id)) == {None}  # nothing drawn from any stream

    reply = await app.game_report(caller(RED))
    [(name, data)] = reply.files
    text = data.decode("utf-8")
    assert text.rstrip().endswith("## Dice\n\nThis battle began before provable dice: its dice cannot be checked.")
    path = tmp_path / name
    path.write_bytes(data)
    status_code, said = verify_file(path)
    assert status_code != 0
    assert said == [
        f"Cannot check {name}: this report lists no draws: its battle is still in progress or began before "
        "provable dice."
    ]

    exported = await app.campaign_export(caller(GM, "Gina"))
    assert b"dice:" not in exported.files[0][1]  # nothing to check in it


async def test_a_battle_begun_before_provable_dice_finishes_on_the_old_dice_and_says_so(
    database: Database, tmp_path: Path
) -> None:
    app = secure_app(database)
    await ssg_battle(app)
    await forget_the_secret(database)
    await play_on_the_old_dice(secure_app(database), database, tmp_path)


async def test_a_database_at_0005_with_a_battle_in_progress_is_upgraded_and_plays_on(
    db_url: str, tmp_path: Path
) -> None:
    database = await Database.open(db_url)
    try:
        await ssg_battle(secure_app(database))
        before = await game_row(database)
        assert before.dice_commitment is not None
    finally:
        await database.close()

    await downgrade(db_url, "0005_campaign_channel_index")
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            columns = await conn.run_sync(lambda sync: {c["name"] for c in inspect(sync).get_columns("games")})
    finally:
        await engine.dispose()
    assert "state" in columns and not {"dice_secret", "dice_commitment", "dice_next", "dice_note"} & columns

    await upgrade(db_url)
    database = await Database.open(db_url)
    try:
        after = await game_row(database)
        assert (after.id, after.status, after.state) == (before.id, "active", before.state)
        assert after.dice_secret is None and after.dice_commitment is None and after.dice_next == 0
        await play_on_the_old_dice(secure_app(database), database, tmp_path)
    finally:
        await database.close()
