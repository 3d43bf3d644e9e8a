"""/game log a page at a time, and /game report: the whole battle as a Markdown document.

Who sees what:

* Anyone in the channel may read the log and ask for the report (as ``/game status``).
* A game master's secret roll (``/roll secret:true``) is kept in the log like any roll. While the
  battle is in progress only the game master sees it; everyone else sees, in its place, that the
  game master rolled in secret (not the dice, the reason, or the result), as at a table where the
  dice are heard behind the screen. Once the battle is over (won, or ended by the game master),
  everyone sees it, marked 🔒, in the log and in the report. If ``/game undo`` reopens a battle
  that was won, its secret rolls are hidden again until it ends.
* The report of a finished battle is posted in the channel (everyone keeps the same document);
  while the battle is in progress it is a private snapshot for whoever asked, so the game
  master's copy, which shows the secret rolls, is never seen by the players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import ceil
from typing import Any

from bot.app.access import campaign_of, engine_of
from bot.app.aftermath import AFTERMATH_COMMAND
from bot.app.battle_dice import dice_document
from bot.app.context import Context
from bot.app.replies import LOG_PAGE_DEFAULT, Caller, Card, LogPage, Refusal, Reply
from bot.render.report import (
    BattleReport,
    Fallen,
    LogAction,
    ReportFigure,
    ReportSide,
    casualties,
    dice_markdown,
    log_text,
    report_markdown,
    result_text,
)
from bot.render.shown import side_colour
from bot.store import Unit
from bot.store.records import Campaign, Game
from bot.store.reports import LogLine
from rules import RULESETS
from rules.core import PAYLOAD_OF_KIND, CasualtyPayload, Engine, Event, RuleError, payload_of

LOG_PAGE_MAX = 25
#: A log page's description: Discord allows 4,096 characters (6,000 a message), so it is never cut.
LOG_PAGE_CHARS = 3600
#: Discord takes attachments of 10 MiB in any server; a report this large is refused with a sentence.
REPORT_MAX_BYTES = 8 * 1024 * 1024
BATTLE_ID_MAX = 2**31 - 1  # a battle's number (and a game's id) is a 32-bit integer on PostgreSQL
#: The event kinds whose data the log and the report read; the others' data is not decoded.
DATA_KINDS = frozenset(PAYLOAD_OF_KIND)
#: The keys of an event's data that name the figure or unit it is about, in the order they are read.
NAMED_BY = ("figure", "unit", "loser_unit")


class ReportCommands:
    """/game log and /game report: anyone in the channel reads them; the game master's secret
    rolls are kept back from the players until the battle is over."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def game_log(
        self,
        caller: Caller,
        count: int = LOG_PAGE_DEFAULT,
        page: int = 1,
        battle: int | None = None,
        *,
        game_id: int | None = None,
    ) -> LogPage:
        """One page of a battle's log, newest first: page 1 holds the last ``count`` actions.

        ``battle`` is the battle's number in the campaign (as players type it); ``game_id`` the
        internal id a page button carries."""
        count = max(1, min(count, LOG_PAGE_MAX))
        if page < 1:
            raise Refusal("Pages start at 1 (the newest actions).")
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            game = await self._battle(u, campaign, battle, game_id)
            total = await u.log.count(game.id)
            pages = max(1, ceil(total / count))
            if page > pages:
                plural = "page" if pages == 1 else "pages"
                raise Refusal(
                    f"Battle {game.number}'s log has {pages} {plural} of {count} actions: there is no page {page}."
                )
            names = {m.user_id: m.display_name for m in await u.members.all(campaign.id)}
            lines = await u.reports.lines(game.id, data_of=DATA_KINDS, limit=count, offset=(page - 1) * count)
        actions = _log_actions(lines, names, _sees_secrets(campaign, game, caller))
        card = Card(title=f"Log of battle {game.number}", description=log_text(actions, LOG_PAGE_CHARS))
        if actions:
            span = f"actions {actions[0].seq}–{actions[-1].seq}" if len(actions) > 1 else f"action {actions[0].seq}"
            card.footer = f"Page {page} of {pages} · {span}, newest first · /game report has the whole battle"
        return LogPage(cards=[card], ephemeral=True, game_id=game.id, page=page, pages=pages, count=count)

    async def game_report(self, caller: Caller, battle: int | None = None) -> Reply:
        """The whole battle as ``battle-<number>.md``: public once it is over, private while it goes on."""
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            game = await self._battle(u, campaign, battle)
            head = await u.reports.head(game.id)
            assert head is not None  # the game was read in this transaction
            members = await u.members.all(campaign.id)
            engine = engine_of(campaign)
            lines = await u.reports.lines(game.id, data_of=DATA_KINDS | set(engine.casualty_kinds))
            owners = {figure.name: figure.owner_id for figure in await u.figures.all(campaign.id)}
        names = {m.user_id: m.display_name for m in members}
        players = [(m.side, m.display_name) for m in members if m.side is not None and m.role != "pending"]
        sees = _sees_secrets(campaign, game, caller)
        actions = _log_actions(lines, names, sees, _who_fights_for(head.start), engine)
        finished = game.status != "active"
        losses: dict[str, int] | None
        try:
            state = engine.load_state(game.state)
            board, order, losses = engine.board(state), list(engine.sides()), engine.losses(state)
        except RuleError:  # a state the campaign's current house rules can no longer read
            board, order, losses = None, [], None
        report = BattleReport(
            campaign=campaign.name,
            battle=game.number,
            ruleset=RULESETS.get(head.ruleset, ("", head.ruleset))[1],
            game_master=names.get(campaign.gm_id, "the game master"),
            started=head.created_at,
            ended=head.ended_at,
            finished=finished,
            winner=game.winner,
            sides=_sides(head.start, order, owners, names, players),
            actions=actions,
            board=board,
            secrets_shown=sees,
            losses=losses,
        )
        document = dice_document(game, [die for line in lines for die in line.rolls], revealed=finished)
        data = (report_markdown(report) + dice_markdown(document, f"battle-{game.number}.md")).encode("utf-8")
        if len(data) > REPORT_MAX_BYTES:
            raise Refusal(
                f"Battle {game.number}'s report is {len(data) // 2**20} MiB, more than Discord takes in one file."
            )
        card = Card(
            title=f"Report of battle {game.number}",
            colour=side_colour(game.winner),
            description=_summary(report),
            footer=f"battle-{game.number}.md · {len(actions)} actions",
        )
        return Reply(cards=[card], files=[(f"battle-{game.number}.md", data)], ephemeral=not finished)

    # --- helpers --------------------------------------------------------------------------------

    @staticmethod
    async def _battle(u: Unit, campaign: Campaign, battle: int | None, game_id: int | None = None) -> Game:
        """The battle asked for (by its number in the campaign, as ``/game status`` shows it, or by
        the internal id a page button carries), else the current or last one."""
        if game_id is not None:
            game = None
            if 1 <= game_id <= BATTLE_ID_MAX:
                game = await u.games.get(game_id)
            if game is None or game.campaign_id != campaign.id:
                raise Refusal("There is no such battle in this campaign.")
            return game
        if battle is None:
            game = await u.games.in_progress(campaign.id) or await u.games.latest(campaign.id)
            if game is None:
                raise Refusal("No game has been played here yet.")
            return game
        game = None
        if 1 <= battle <= BATTLE_ID_MAX:
            game = await u.games.numbered(campaign.id, battle)
        if game is None:
            raise Refusal(f"There is no battle {battle} in this campaign.")
        return game


def _sees_secrets(campaign: Campaign, game: Game, caller: Caller) -> bool:
    return game.status != "active" or campaign.gm_id == caller.user_id


def _log_actions(
    lines: list[LogLine],
    names: dict[int, str],
    sees_secrets: bool,
    sides: Mapping[str, str] | None = None,
    engine: Engine[Any] | None = None,
) -> list[LogAction]:
    """The log's actions as this reader sees them: a secret roll is only a fact until they may see
    it. With ``engine``, each action's events that put figures out of the fight (the report's
    casualties)."""
    actions = []
    for line in lines:
        hidden = line.secret and not sees_secrets
        fallen = _fallen(engine, line.events, sides or {}) if engine is not None and not hidden else ()
        actions.append(
            LogAction(
                seq=line.seq,
                actor=names.get(line.user_id, "a former player"),
                by_gm=line.by_gm,
                side=line.side,
                command="" if hidden else line.command,
                undone=line.undone,
                secret=line.secret,
                hidden=hidden,
                events=() if hidden else line.events,
                rolls=() if hidden else line.rolls,
                aftermath=line.command == AFTERMATH_COMMAND,
                fallen=fallen,
            )
        )
    return actions


def _fallen(engine: Engine[Any], events: Sequence[Event], sides: Mapping[str, str]) -> tuple[Fallen, ...]:
    """The events that put figures out of the fight, by the ruleset's one count of them
    (``Engine.odds_casualties``, as /odds counts casualties), read event by event; each with the
    side of the figure or unit it names (its payload's, else the side the name started on)."""
    found = []
    for event in events:
        count = engine.odds_casualties([event])
        if count:
            found.append(Fallen(event, count, _side_of(event, sides)))
    return tuple(found)


def _side_of(event: Event, sides: Mapping[str, str]) -> str | None:
    casualty = payload_of(event, CasualtyPayload)
    if casualty is not None and casualty.side:
        return casualty.side
    said = event.data.get("side")
    if isinstance(said, str) and said:
        return said
    for key in NAMED_BY:
        name = event.data.get(key)
        if isinstance(name, str) and name in sides:
            return sides[name]
    return None


def _who_fights_for(start: Any) -> dict[str, str]:
    """Each figure's (or unit's) side at the battle's start, by name."""
    specs = start.get("start") if isinstance(start, dict) else None
    found: dict[str, str] = {}
    for spec in specs if isinstance(specs, list) else []:
        if isinstance(spec, dict) and spec.get("name") is not None and spec.get("side") is not None:
            found[str(spec["name"])] = str(spec["side"])
    return found


def _sides(
    start: Any, order: list[str], owners: dict[str, int], names: dict[int, str], players: list[tuple[str, str]]
) -> list[ReportSide]:
    """The sides with their players, and the figures each started with (from the game's start)."""
    specs = start.get("start") if isinstance(start, dict) else None
    figures: dict[str, list[ReportFigure]] = {}
    for spec in specs if isinstance(specs, list) else []:
        if not isinstance(spec, dict):
            continue
        name, side = str(spec.get("name", "?")), str(spec.get("side", "?"))
        given = spec.get("stats")
        stats = given if isinstance(given, dict) else {}
        owner = owners.get(name)
        figures.setdefault(side, []).append(
            ReportFigure(name, str(spec.get("kind", "")), names.get(owner) if owner is not None else None, stats)
        )
    by_side: dict[str, list[str]] = {}
    for side, display_name in players:
        by_side.setdefault(side, []).append(display_name)
    listed = [s for s in order if s in figures or s in by_side] + [s for s in figures if s not in order]
    return [ReportSide(side, tuple(by_side.get(side, ())), tuple(figures.get(side, ()))) for side in listed]


def _summary(report: BattleReport) -> str:
    """The card beside the attachment: the result and the count of what the report holds."""
    rolled = sum(len(a.rolls) for a in report.actions)
    fallen = casualties(report)
    lines = [
        f"{report.campaign} — {report.ruleset}",
        result_text(report),
        f"{_count(len(report.actions), 'action')}, {_count(rolled, 'die or card', 'dice and cards')}, "
        f"{_count(fallen, 'casualty', 'casualties')}.",
    ]
    hidden = sum(1 for a in report.actions if a.hidden)
    if hidden:
        lines.append(f"{_count(hidden, 'secret roll')} by the game master, shown when the battle ends.")
    elif report.secrets_shown and not report.finished and any(a.secret for a in report.actions):
        lines.append("🔒 This copy shows your secret rolls: it is yours alone until the battle ends.")
    if not report.finished:
        lines.append("The battle goes on: this is the report so far.")
    return "\n".join(lines)


def _count(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"
