"""/game undo without a second chance (issue 18), on SQLite and PostgreSQL: an action that rolled
dice is taken back only if the other side allows it, or by the game master; one that rolled
nothing, by its player at once; a look is never the action taken back."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.app.replies import Caller, Refusal
from bot.app.service import App
from bot.dice import ForcedDice
from bot.render.cards import cards_text
from bot.store import Store
from bot.store.database import Database
from bot.store.schema import ActionRecord, DecisionRecord, Game, RollRecord
from tests.named_app import NamedApp
from tests.orm import orm
from tests.support import BLUE, GM, RED, caller, join, ssg_table

TEAMMATE = 5
MISSED = {"shooter": "Rossi", "target": "Bo", "range": 5.0, "los": "clear"}
SHOT = "/ssg shoot shooter:Rossi target:Bo"


async def game_row(app: App) -> Game:
    async with orm(app.store.db) as s:
        return await s.scalar(select(Game))


async def log_rows(app: App) -> list[tuple[int, str, bool, list[str]]]:
    """Each entry of the log: seq, command, undone, the values it rolled."""
    async with orm(app.store.db) as s:
        found = []
        for record in await s.scalars(select(ActionRecord).order_by(ActionRecord.seq)):
            values = await s.scalars(select(RollRecord.value).where(RollRecord.action_id == record.id))
            found.append((record.seq, record.command, record.undone, list(values)))
        return found


async def missed_shot(app: App, forced: ForcedDice) -> None:
    """Red goes to its shooting phase and Rossi misses Bo (a 1)."""
    await app.act(caller(RED, "Rita"), "ssg", "next", {}, "/ssg next")
    forced.push_dice([1])
    shot = await app.act(caller(RED, "Rita"), "ssg", "shoot", MISSED, SHOT)
    assert [r.value for r in shot.rolls] == ["1"]


async def test_a_missed_shot_is_taken_back_only_if_the_other_side_allows(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    await missed_shot(app, forced)
    after_shot, log_after_shot = (await game_row(app)).state, await log_rows(app)

    asked = await app.game_undo(caller(RED, "Rita"))
    assert asked.decision is not None and asked.decision.decider == "blue"
    assert [c.value for c in asked.decision.choices] == ["allow", "refuse"]
    assert asked.decision.prompt == f"Rita asks to take back `{SHOT}` (rolled 1): allow or refuse?"
    assert asked.ping_user_ids == [BLUE] and asked.content.startswith(f"<@{BLUE}> blue: Rita asks")
    assert (await game_row(app)).state == after_shot and await log_rows(app) == log_after_shot
    with pytest.raises(Refusal, match="already waits for blue"):
        await app.game_undo(caller(RED, "Rita"))
    with pytest.raises(Refusal, match="Waiting for blue to decide: Rita asks to take back"):
        await app.act(caller(RED, "Rita"), "ssg", "shoot", MISSED, SHOT)  # no second shot meanwhile

    refused = await app.decide(caller(BLUE, "Bob"), None, asked.decision.decision_id, index=1)
    assert refused.cards[0].title == "Undo refused"
    assert "Bob refused Rita's request" in refused.cards[0].description
    assert (await game_row(app)).state == after_shot  # nothing changes, and the log says so
    assert await log_rows(app) == [*log_after_shot, (log_after_shot[-1][0] + 1, "/decide choice:refuse", False, [])]
    log_after_shot = await log_rows(app)
    report = (await app.game_report(caller(GM, "Gina"))).files[0][1].decode()
    assert f"**4.** Bob: `/decide choice:refuse`\n- Bob refused Rita's request: {SHOT} stands." in report

    again = await app.game_undo(caller(RED, "Rita"))
    assert again.decision is not None
    allowed = await app.decide(caller(BLUE, "Bob"), "allow")  # /decide finds blue's waiting request
    assert allowed.cards[0].title == "Undone" and allowed.cards[0].footer == "by Rita, allowed by Bob"
    assert (await game_row(app)).state != after_shot
    *_, (seq, command, undone, values), refusal = await log_rows(app)
    assert (command, undone, values) == (SHOT, True, ["1"])  # the shot is gone, its die still logged
    assert refusal[1:] == ("/decide choice:refuse", False, [])  # the first request, refused, stays
    seq = refusal[0]

    forced.push_dice([6])
    retaken = await app.act(caller(RED, "Rita"), "ssg", "shoot", MISSED, SHOT)
    assert [r.value for r in retaken.rolls] == ["6"] and any(e.kind == "casualty" for e in retaken.events)
    assert (await log_rows(app))[-1] == (seq + 1, SHOT, False, ["6"])
    async with orm(app.store.db) as s:
        draws = list(await s.scalars(select(RollRecord.draw).order_by(RollRecord.id)))
    assert draws[-1] is None or draws[-1] > draws[-2]  # the stream went on: the retaken shot rolled anew


async def test_the_game_master_takes_a_shot_back_at_once(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    await missed_shot(app, forced)
    asked = await app.game_undo(caller(RED, "Rita"))
    assert asked.decision is not None
    undone = await app.game_undo(caller(GM, "Gina"))
    assert undone.decision is None and undone.cards[0].footer == "by Gina (game master)"
    assert (await log_rows(app))[-1][2] is True
    async with orm(app.store.db) as s:
        request = await s.get(DecisionRecord, asked.decision.decision_id)
        assert request.status == "cancelled"  # the game moved on: the request waits no more
    with pytest.raises(Refusal, match="already been made"):
        await app.decide(caller(BLUE, "Bob"), "allow", asked.decision.decision_id)
    assert [undone for _, _, undone, _ in await log_rows(app)] == [False, False, True]


async def test_a_game_master_who_plays_a_side_asks_the_other_side_like_any_player(app: App, forced: ForcedDice) -> None:
    """Issue 26: the game master joined red and took her own shot back four times until it hit."""
    await ssg_table(app, forced)
    joined = await app.campaign_join(caller(GM, "Gina"), "red")
    assert "asked of the other side" in cards_text(joined.cards)
    await app.act(caller(GM, "Gina"), "ssg", "next", {}, "/ssg next")
    forced.push_dice([1])
    shot = await app.act(caller(GM, "Gina"), "ssg", "shoot", MISSED, SHOT)
    assert [r.value for r in shot.rolls] == ["1"]
    after_shot, log_after_shot = (await game_row(app)).state, await log_rows(app)

    asked = await app.game_undo(caller(GM, "Gina"))
    assert asked.decision is not None and asked.decision.decider == "blue"
    assert asked.ping_user_ids == [BLUE]
    assert (await game_row(app)).state == after_shot and await log_rows(app) == log_after_shot
    for _ in range(3):  # triple clicks: neither a second request nor her own allow
        with pytest.raises(Refusal, match="already waits for blue"):
            await app.game_undo(caller(GM, "Gina"))
        with pytest.raises(Refusal, match=r"^You asked to take it back: only blue's player may allow it\.$"):
            await app.decide(caller(GM, "Gina"), None, asked.decision.decision_id, index=0)
    with pytest.raises(Refusal, match="Waiting for blue to decide"):
        await app.act(caller(GM, "Gina"), "ssg", "shoot", MISSED, SHOT)
    assert (await game_row(app)).state == after_shot and await log_rows(app) == log_after_shot

    await app.campaign_join(caller(GM, "Gina"), "blue")  # to the deciding side: still her own request
    with pytest.raises(Refusal, match=r"^You asked to take it back: only blue's player may allow it\.$"):
        await app.decide(caller(GM, "Gina"), "allow", asked.decision.decision_id)
    await app.campaign_join(caller(GM, "Gina"), "red")
    withdrawn = await app.decide(caller(GM, "Gina"), "refuse", asked.decision.decision_id)
    assert "Gina withdrew the request" in withdrawn.cards[0].description
    again = await app.game_undo(caller(GM, "Gina"))
    assert again.decision is not None
    allowed = await app.decide(caller(BLUE, "Bob"), "allow", again.decision.decision_id)
    assert allowed.cards[0].title == "Undone" and allowed.cards[0].footer == "by Gina, allowed by Bob"


async def test_the_game_master_may_answer_the_request_for_the_other_side(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    await missed_shot(app, forced)
    asked = await app.game_undo(caller(RED, "Rita"))
    assert asked.decision is not None
    allowed = await app.decide(caller(GM, "Gina"), "allow", asked.decision.decision_id)
    assert allowed.cards[0].footer == "by Rita, allowed by Gina (game master)"
    assert (await log_rows(app))[-1][2] is True


async def test_a_move_without_dice_is_taken_back_by_its_player_at_once(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    before = (await game_row(app)).state
    await app.act(caller(RED, "Rita"), "ssg", "move", {"figure": "Rossi", "distance": 2.0}, "/ssg move")
    undone = await app.game_undo(caller(RED, "Rita"))
    assert undone.decision is None and undone.cards[0].title == "Undone"
    assert (await game_row(app)).state == before


async def test_only_the_other_side_or_the_game_master_may_allow(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    await join(app, TEAMMATE, "Ria", "red")
    await missed_shot(app, forced)
    asked = await app.game_undo(caller(RED, "Rita"))
    assert asked.decision is not None
    state, log = (await game_row(app)).state, await log_rows(app)
    for who, name in ((TEAMMATE, "Ria"), (RED, "Rita")):
        with pytest.raises(Refusal, match=r"^Only blue's player or the game master may answer this request\.$"):
            await app.decide(caller(who, name), None, asked.decision.decision_id, index=0)
    assert (await game_row(app)).state == state and await log_rows(app) == log
    async with orm(app.store.db) as s:
        assert (await s.get(DecisionRecord, asked.decision.decision_id)).status == "open"
    withdrawn = await app.decide(caller(RED, "Rita"), "refuse", asked.decision.decision_id)  # she may withdraw it
    assert withdrawn.cards[0].title == "Undo refused"
    assert "Rita withdrew the request" in withdrawn.cards[0].description
    assert await log_rows(app) == [*log, (log[-1][0] + 1, "/decide choice:refuse", False, [])]
    assert (await game_row(app)).state == state


async def test_an_allow_takes_nothing_back_once_the_game_moved_on(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    await missed_shot(app, forced)
    asked = await app.game_undo(caller(RED, "Rita"))
    assert asked.decision is not None
    game_id = (await game_row(app)).id
    async with app.store.transaction() as u:  # something changed the table meanwhile (a free action)
        game = await u.games.get(game_id, lock=True)
        assert game is not None
        await u.play.save_state(game, game.state)
    lapsed = await app.decide(caller(BLUE, "Bob"), "allow", asked.decision.decision_id)
    assert lapsed.cards[0].title == "Undo lapsed"
    assert not (await log_rows(app))[-1][2]


async def test_the_request_survives_a_restart(db_url: str, forced: ForcedDice) -> None:
    database = await Database.open(db_url)
    app = NamedApp(Store(database), lambda: forced)
    await ssg_table(app, forced)
    await missed_shot(app, forced)
    asked = await app.game_undo(caller(RED, "Rita"))
    assert asked.decision is not None
    await database.close()

    database = await Database.open(db_url)
    try:
        again = NamedApp(Store(database), lambda: forced)
        [waiting] = await again.open_decisions(caller(BLUE, "Bob"))
        assert waiting.decision_id == asked.decision.decision_id and waiting.prompt == asked.decision.prompt
        allowed = await again.decide(caller(BLUE, "Bob"), None, waiting.decision_id, index=0)
        assert allowed.cards[0].title == "Undone"
        assert (await log_rows(again))[-1][2] is True
    finally:
        await database.close()


async def test_a_look_is_never_the_action_taken_back(app: App, forced: ForcedDice) -> None:
    """YASG: a look changes nothing and rolls nothing, so /game undo takes back the placing before it."""
    await app.campaign_new(caller(GM, "Gina"), "Farm", "yasg", "table")
    await join(app, RED, "Rita", "british")
    await join(app, BLUE, "Bob", "french")
    await app.roster_add(caller(RED, "Rita"), "Sharpe", "A", stats="leader=yes")
    await app.roster_add(caller(BLUE, "Bob"), "Ducos", "B", stats="leader=yes")
    await app.game_start(caller(GM, "Gina"))

    def gm():
        return caller(GM, "Gina")

    await app.act(gm(), "yasg", "place", {"figure": "Ducos", "square": "D3", "facing": "south"}, "/yasg place Ducos")
    before = (await game_row(app)).state
    await app.act(gm(), "yasg", "place", {"figure": "Sharpe", "square": "D8", "facing": "north"}, "/yasg place Sharpe")
    placed = (await game_row(app)).state
    logged = await log_rows(app)
    looked = await app.act(gm(), "yasg", "look", {"figure": "Sharpe", "target": "Ducos"}, "/yasg look")
    assert [e.kind for e in looked.events] == ["look"] and looked.ephemeral  # a question: only the asker sees it
    assert (await game_row(app)).state == placed
    assert await log_rows(app) == logged  # not an action: the log and the report never list it
    undone = await app.game_undo(gm())
    assert "/yasg place Sharpe" in undone.cards[0].description
    assert (await game_row(app)).state == before
    assert [(command, undone) for _, command, undone, _ in await log_rows(app)][-1:] == [("/yasg place Sharpe", True)]


async def test_status_and_odds_are_never_logged(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    await app.act(caller(RED, "Rita"), "ssg", "move", {"figure": "Rossi", "distance": 2.0}, "/ssg move")
    log = await log_rows(app)
    await app.game_status(caller(BLUE, "Bob"))
    await app.odds(caller(RED, "Rita"), "ssg", "move", {"figure": "Ada", "distance": 1.0})
    await app.game_log(caller(BLUE, "Bob"))
    assert await log_rows(app) == log
    undone = await app.game_undo(caller(RED, "Rita"))
    assert "/ssg move" in undone.cards[0].description


async def test_the_undone_shot_is_marked_taken_back_in_the_log_and_struck_in_the_report(
    app: App, forced: ForcedDice
) -> None:
    """The log marks an undone action with its own words, not with the strikethrough the terminal
    writes "[out]" (a fallen figure's mark); the Markdown report strikes it through, with a note."""
    await ssg_table(app, forced)
    await missed_shot(app, forced)
    undone = await app.game_undo(caller(GM, "Gina"))
    assert undone.cards[0].description == f"`{SHOT}` is taken back; the dice it rolled stay in the log."
    page = (await app.game_log(caller(BLUE, "Bob"))).cards[0].description
    marked = [line for line in page.splitlines() if "(taken back)" in line]
    assert marked[0] == f"**3.** `{SHOT}` — Rita (taken back)"
    assert any(line.startswith("  (taken back) 🎲 d6 → **1** — Rossi") for line in marked)
    assert "~~" not in page and "[out]" not in cards_text((await app.game_log(caller(BLUE, "Bob"))).cards)
    report = (await app.game_report(caller(GM, "Gina"))).files[0][1].decode()
    assert f"**3.** ~~Rita (red): `{SHOT}`~~ — *taken back with /game undo; its dice stay in the log*" in report
    assert "- ~~🎲 d6 → **1** — Rossi" in report


async def test_a_move_taken_back_says_nothing_of_dice_it_never_rolled(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    await app.act(caller(RED, "Rita"), "ssg", "move", {"figure": "Rossi", "distance": 2.0}, "/ssg move")
    undone = await app.game_undo(caller(RED, "Rita"))
    assert undone.cards[0].description == "`/ssg move` is taken back."
    report = (await app.game_report(caller(GM, "Gina"))).files[0][1].decode()
    assert "— *taken back with /game undo*" in report and "dice stay" not in report


async def test_an_undo_takes_back_the_changeless_actions_after_it_so_the_log_still_replays(
    app: App, forced: ForcedDice
) -> None:
    """Sharpe turns east, then is told to face east again (accepted, nothing changes: a look, never
    the action taken back). Undo takes back the turn; the second order, given on top of it, goes
    with it: left in the log, a replay would turn Sharpe east although the saved game has him north."""
    from rules import get_engine
    from tests.replay import load_log, replay

    clicks = iter(range(70_000, 70_100))

    def gm() -> Caller:  # each command its own interaction, as on Discord
        return caller(GM, "Gina", interaction_id=next(clicks))

    await app.campaign_new(gm(), "Y", "yasg")
    await app.roster_add(gm(), "Sharpe", "A", side="british")
    await app.roster_add(gm(), "Ducos", "B", side="french")
    await app.game_start(gm())
    await app.act(gm(), "yasg", "place", {"figure": "Sharpe", "square": "D8", "facing": "n"}, "/yasg place")
    await app.act(gm(), "yasg", "place", {"figure": "Ducos", "square": "D3", "facing": "s"}, "/yasg place")
    forced.push_dice([6, 2, 6, 2])
    await app.act(gm(), "yasg", "next", {}, "/yasg next")
    await app.act(gm(), "yasg", "next", {}, "/yasg next")
    for _ in range(2):
        await app.act(gm(), "yasg", "face", {"figure": "Sharpe", "facing": "e"}, "/yasg face figure:Sharpe facing:e")
    await app.game_undo(gm())
    engine = get_engine("yasg")
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game))
        records = await load_log(s, game)
    assert [f["facing"] for f in game.state["figures"] if f["name"] == "Sharpe"] == ["n"]
    assert engine.dump_state(replay(engine, records)) == game.state
    assert [r.undone for r in records if r.command.startswith("/yasg face")] == [True, True]
