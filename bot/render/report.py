"""A battle as a Markdown document a player keeps, and one log entry as a few lines of an embed.

Pure: it takes plain data (:class:`BattleReport`, :class:`LogAction`) and returns text. The
application layer decides what the reader may see (a secret roll arrives already hidden as
``hidden``); this module only draws it.

How the report is laid out:

* a title (campaign and battle), the ruleset, the dates, the game master and the result;
* the sides, each with its players and the figures it started with;
* the battle action by action, under a heading per turn where the ruleset's events tell turns (a
  ``phase`` event whose typed payload has a turn number, or a ``bound`` or ``turn`` event with its
  bound's: after the action that announced it, a new number opens the next heading; a phase event
  without a number opens none); each action with who made it, the command as typed, its events
  and every die with its reason;
* an action taken back with ``/game undo`` stays, struck through with its events and dice, with a
  note saying "taken back with /game undo" and, when it rolled, that its dice stay in the log (the
  stream never rewinds, so the action taken again rolled new ones); it changed nothing, so it
  never counts as a casualty or a turn. A refused request to take one back is an entry of its own;
* what the rules did to the rosters after the battle (deaths, wounds that heal), under its own
  heading, when the battle closed;
* the casualties, where the figures stand at the end, and the result.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from bot.dice import RolledDie
from bot.render.cards import CARD, DIE, roll_line
from bot.render.characters import MARKDOWN
from bot.render.shown import shown, shown_event, told
from rules.core import Board, BoundPayload, Event, PhasePayload, payload_of

LOCK = "🔒"
TROPHY = "🏆"
SKULL = "☠"
#: How the log and the report mark an action taken back with /game undo: its own mark, not the
#: strikethrough of a figure out of the fight (the terminal writes that "[out]").
TAKEN_BACK = "(taken back)"
UNDONE_NOTE = "taken back with /game undo"
#: What an undone action that rolled keeps: its dice were rolled and the log keeps them.
UNDONE_DICE = "its dice stay in the log"
HIDDEN_TEXT = f"{LOCK} The game master rolled in secret: revealed when the battle ends."
AFTERMATH_HEADING = "After the battle"
AFTERMATH_TEXT = "The battle's consequences for the rosters"
AFTERMATH_QUIET = "Nothing rolled: each figure's history notes this battle."
#: The event kinds that may open a turn heading (their typed payloads carry the turn's number).
TURN_MARKERS: tuple[str, ...] = (*PhasePayload.kinds, *BoundPayload.kinds)
#: One event or die line in a log page is never longer than this (a page must not need cutting).
LOG_LINE_MAX = 300

_MD_SPECIAL = re.compile(f"([{re.escape(''.join(MARKDOWN))}])")


@dataclass(frozen=True)
class Fallen:
    """An event that put figures out of the fight, as its ruleset counts them
    (``Engine.odds_casualties``), and the side they fought for."""

    event: Event
    count: int
    side: str | None = None


@dataclass(frozen=True)
class LogAction:
    """One entry of a game's log, as the reader may see it."""

    seq: int
    actor: str
    by_gm: bool
    side: str | None
    command: str
    undone: bool = False
    secret: bool = False  # a game master's secret roll
    hidden: bool = False  # secret, and this reader may not see it yet: nothing but the fact is shown
    events: Sequence[Event] = ()
    rolls: Sequence[RolledDie] = ()
    aftermath: bool = False  # the rules' consequences for the rosters, written when the battle closes
    #: Its events that put figures out of the fight (the report's casualties); none once undone.
    fallen: Sequence[Fallen] = ()


@dataclass(frozen=True)
class ReportFigure:
    name: str
    kind: str
    player: str | None = None
    stats: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReportSide:
    name: str
    players: Sequence[str] = ()
    figures: Sequence[ReportFigure] = ()


@dataclass(frozen=True)
class BattleReport:
    campaign: str
    battle: int
    ruleset: str
    game_master: str
    started: datetime
    ended: datetime | None
    finished: bool  # the game is over (won, or ended by the game master)
    winner: str | None
    sides: Sequence[ReportSide]
    actions: Sequence[LogAction]
    board: Board | None = None  # where the figures stand now
    #: Each side's figures out of the fight now, as the state counts them (``Engine.losses``); None
    #: where the state cannot be read: the casualties listed are then summed instead.
    losses: Mapping[str, int] | None = None
    secrets_shown: bool = False  # secret rolls are shown to this reader (game over, or the game master)


# --- small Markdown helpers ------------------------------------------------------------------


def escape(text: str) -> str:
    """A name typed by a player, shown as itself in Markdown (``*``, ``_``, ``#`` … escaped)."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def code(text: str) -> str:
    """``text`` as an inline code span, whatever backticks it holds."""
    text = " ".join(text.split())
    if "`" not in text:
        return f"`{text}`"
    fence = "`" * (max(len(run) for run in re.findall(r"`+", text)) + 1)
    return f"{fence} {text} {fence}"


def strike(text: str) -> str:
    return f"~~{text}~~" if text else text


def when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment else "?"


def turn_of(event: Event) -> str | None:
    """``"Turn 3"`` (or ``"Bound 2"``) when ``event`` announces a numbered turn; else ``None`` (also
    for turn 0, which some rulesets use for placing figures)."""
    payload = payload_of(event)
    if isinstance(payload, PhasePayload):
        word, number = "Turn", payload.turn
    elif isinstance(payload, BoundPayload):
        word, number = "Bound", payload.bound
    else:
        return None
    if isinstance(number, int) and not isinstance(number, bool) and number >= 1:  # turn 0: setting up
        return f"{word} {number}"
    return None


def actor_text(action: LogAction) -> str:
    who = escape(action.actor)
    if action.by_gm:
        return f"{who} (game master" + (f", for {escape(action.side)})" if action.side else ")")
    return f"{who} ({escape(action.side)})" if action.side else who


def result_text(report: BattleReport) -> str:
    if report.winner:
        return f"{TROPHY} **{escape(report.winner).title()}** won."
    if report.finished:
        return "Ended by the game master without a winner."
    headline = report.board.headline if report.board is not None else ""
    return "In progress" + (f": {headline}" if headline else ".")


# --- the report --------------------------------------------------------------------------------


def report_markdown(report: BattleReport) -> str:
    """The whole battle as one Markdown document (linear in the number of actions)."""
    return "\n".join(_report_lines(report)).rstrip() + "\n"


def _report_lines(report: BattleReport) -> Iterator[str]:
    yield f"# {escape(report.campaign)} — battle {report.battle}"
    yield ""
    yield f"- **Ruleset:** {escape(report.ruleset)}"
    fought = f"{when(report.started)} to {when(report.ended)}" if report.ended else f"since {when(report.started)}"
    yield f"- **Fought:** {fought}"
    yield f"- **Game master:** {escape(report.game_master)}"
    yield f"- **Result:** {result_text(report)}"
    yield f"- **Actions:** {len(report.actions)}"
    secrets = sum(1 for a in report.actions if a.secret)
    if secrets:
        if report.secrets_shown and report.finished:
            yield f"- **Secret rolls:** {secrets}, revealed below ({LOCK})."
        elif report.secrets_shown:
            yield f"- **Secret rolls:** {secrets}, shown to the game master only until the battle ends ({LOCK})."
        else:
            yield f"- **Secret rolls:** {secrets}, revealed in this report when the battle ends."
    yield ""
    yield from _sides(report.sides)
    yield from _battle(report.actions, tagged=report.finished)
    yield from _casualties(report)
    yield from _standing(report)
    yield "## Result"
    yield ""
    yield result_text(report)


def _sides(sides: Sequence[ReportSide]) -> Iterator[str]:
    yield "## Sides"
    yield ""
    for side in sides:
        yield f"### {escape(side.name).title()}"
        yield ""
        players = ", ".join(escape(p) for p in side.players) or "no player"
        yield f"Played by {players}. Figures at the start:"
        yield ""
        for fig in side.figures:
            line = f"- **{escape(fig.name)}** ({escape(fig.kind)})"
            if fig.player:
                line += f" — {escape(fig.player)}"
            if fig.stats:
                line += " · " + code(" ".join(f"{k}={v}" for k, v in fig.stats.items()))
            yield line
        if not side.figures:
            yield "- none"
        yield ""


def _battle(actions: Sequence[LogAction], *, tagged: bool) -> Iterator[str]:
    yield "## The battle"
    yield ""
    told = any(not a.undone and not a.hidden and any(turn_of(e) for e in a.events) for a in actions)
    heading: str | None = None
    if told:  # the first action always comes before the first turn's heading
        yield "### Before the first turn"
        yield ""
    for action in actions:
        if action.aftermath and heading != AFTERMATH_HEADING:
            heading = AFTERMATH_HEADING
            yield f"### {AFTERMATH_HEADING}"
            yield ""
        yield from _action_lines(action, tagged=tagged)
        yield ""
        if action.undone or action.hidden:
            continue
        marker = next((m for m in map(turn_of, reversed(action.events)) if m is not None), None)
        if marker is not None and marker != heading:  # the turn the action leaves the game in
            heading = marker
            yield f"### {marker}"
            yield ""
    if not actions:
        yield "Nothing happened yet."
        yield ""


def _action_lines(action: LogAction, *, tagged: bool) -> Iterator[str]:
    if action.hidden:
        yield f"**{action.seq}.** {HIDDEN_TEXT}"
        return
    head = AFTERMATH_TEXT if action.aftermath else f"{actor_text(action)}: {code(action.command)}"
    if action.undone:
        note = f"{UNDONE_NOTE}; {UNDONE_DICE}" if action.rolls else UNDONE_NOTE
        yield f"**{action.seq}.** {strike(head)} — *{note}*"
    elif action.secret:
        yield f"**{action.seq}.** {head} — {LOCK} *secret roll*"
    else:
        yield f"**{action.seq}.** {head}"
    for event in told(action.events):
        text = shown_event(event).replace("\n", "\n  ")
        if action.undone:
            text = strike(text)
        elif event.kind in ("phase", "bound", "victory"):
            text = f"**{text}**"
        yield f"- {text}"
    for rolled in action.rolls:
        line = drawn_line(rolled, tagged=tagged)
        yield f"- {strike(line) if action.undone else line}"
    if action.aftermath and not action.events and not action.rolls:
        yield f"- {AFTERMATH_QUIET}"


def drawn_line(rolled: RolledDie, *, tagged: bool = True) -> str:
    """A die or card as the report's narrative shows it, on one line, ending with its draw number
    in the battle's stream (`` `draw 17` ``): ``skirmish-gm verify`` finds each draw the narrative
    shows in the dice block and checks that the narrative says the same (docs/verify.md). No reason
    can forge the tag: :func:`shown` escapes every backtick a player typed.

    Untagged while the battle goes on (``tagged`` false): a gap in the numbers would tell how many
    dice the game master rolled in secret, and there is nothing to verify before the end."""
    reason = shown(" ".join(rolled.reason.split()))
    tag = f" · `draw {rolled.draw}`" if tagged and rolled.draw is not None else ""
    if rolled.kind == "card":
        return f"{CARD} **{shown(' '.join(str(rolled.value).split()))}** — {reason}{tag}"
    return f"{DIE} d{rolled.sides} → **{rolled.value}** — {reason}{tag}"


def casualties(report: BattleReport) -> int:
    """The figures out of the fight: as the state counts them, else as the battle's actions put
    them out (undone and hidden ones put none)."""
    if report.losses is not None:
        return sum(report.losses.values())
    return sum(f.count for a in report.actions if not a.undone and not a.hidden for f in a.fallen)


def _casualties(report: BattleReport) -> Iterator[str]:
    """The figures each side has lost (a wound that healed in the battle, or a man hit again once
    he fell, counts as the state counts it), then each event that put one out of the fight."""
    yield "## Casualties"
    yield ""
    lost: dict[str, int] = {}
    lines = []
    for action in report.actions:
        if action.undone or action.hidden:
            continue
        for fallen in action.fallen:
            if fallen.side:
                lost[fallen.side] = lost.get(fallen.side, 0) + fallen.count
            lines.append(f"- {SKULL} {shown_event(fallen.event)} *(action {action.seq})*")
    if report.losses is not None:
        lost = {side: count for side, count in report.losses.items() if count}
    if lost:
        yield "Lost: " + ", ".join(f"{escape(side).title()} {count}" for side, count in lost.items()) + "."
        yield ""
    yield from lines or ["None."]
    yield ""


def _standing(report: BattleReport) -> Iterator[str]:
    if report.board is None:
        return
    yield "## At the end" if report.finished else "## Where things stand"
    yield ""
    for side, lines in _by_side(report.board).items():
        yield f"- **{escape(side).title()}:** " + "; ".join(lines)
    yield ""


def _by_side(board: Board) -> dict[str, list[str]]:
    sides: dict[str, list[str]] = {}
    for line in board.figures:
        name = strike(escape(line.name)) if line.out else escape(line.name)
        sides.setdefault(line.side, []).append(f"{name} — {line.status}")
    return sides


# --- one log entry, for /game log ---------------------------------------------------------------


def log_entry(action: LogAction, budget: int) -> str:
    """One action as a few lines of a log page, never longer than ``budget`` characters.

    The header always shows; events then dice follow while they fit, and what does not fit is
    counted ("… 12 more lines in /game report"). An undone action says "(taken back)", and so does
    each of its events and dice (the strikethrough of a fallen figure would read "[out]" at the
    terminal).
    """
    if action.hidden:
        return _cut(f"**{action.seq}.** {HIDDEN_TEXT}", budget)
    if action.aftermath:
        action = replace(action, command=AFTERMATH_HEADING.lower(), actor="the rules", by_gm=False)
    who = f" — {action.actor}" + (" (game master)" if action.by_gm else "")
    tag = f" {TAKEN_BACK}" if action.undone else (f" {LOCK} secret" if action.secret else "")
    fixed = len(f"**{action.seq}.** ``") + len(who) + len(tag)
    command = action.command.replace("`", "'")
    room = max(8, min(len(command), budget // 2, budget - fixed))
    header = _cut(f"**{action.seq}.** `{_cut(command, room)}`{who}{tag}", budget)
    lines = [header]
    used = len(header)
    mark = f"{TAKEN_BACK} " if action.undone else ""
    rest = [f"  {mark}{_cut(shown_event(e), LOG_LINE_MAX)}" for e in told(action.events)]
    rest += [f"  {mark}{_cut(roll_line(r), LOG_LINE_MAX)}" for r in action.rolls]
    for index, line in enumerate(rest):
        left = len(rest) - index
        tail = f"  … {left} more line{'s' if left > 1 else ''} in /game report"
        fits_all = used + 1 + len(line) + (0 if left == 1 else 1 + len(tail)) <= budget
        if not fits_all:
            if used + 1 + len(tail) <= budget:
                lines.append(tail)
            break
        lines.append(line)
        used += 1 + len(line)
    return "\n".join(lines)


def log_text(actions: Iterable[LogAction], budget: int) -> str:
    """A page of the log: each entry in its share of ``budget``."""
    entries = list(actions)
    if not entries:
        return "Nothing yet."
    share = max(1, (budget - len(entries)) // len(entries))
    return "\n".join(log_entry(a, share) for a in entries)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


#: Where a report's machine-readable dice begin: ``skirmish-gm verify`` reads the JSON block after it.
DICE_MARK = "<!-- skirmish-gm dice: the JSON block below is what `skirmish-gm verify` checks -->"


def dice_markdown(document: Mapping[str, Any], filename: str) -> str:
    """The report's closing section on its dice: the commitment, the secret once the battle is
    over, and the draws in a JSON block for ``skirmish-gm verify`` (docs/verify.md)."""
    lines = ["", "## Dice", ""]
    commitment, secret, note = document.get("commitment"), document.get("secret"), document.get("note")
    if commitment is None:
        lines.append("This battle began before provable dice: its dice cannot be checked.")
        return "\n".join(lines) + "\n"
    lines.append(f"- Commitment (shown when the battle began): `{commitment}`")
    if secret is None:
        lines.append("- The secret is revealed when the battle ends; the draws are listed with it.")
    else:
        lines.append(f"- Secret: `{secret}`")
        drawn = document.get("drawn")
        if isinstance(drawn, int):
            lines.append(f"- Draws: {_drawn(drawn)}, as the battle's end card said.")
        lines.append(f"- Check every die and card: `skirmish-gm verify {filename}`, or the script in docs/verify.md.")
    if note == "forced":
        lines.append("- Some of this battle's dice were forced at the terminal: those cannot be checked.")
    elif note == "seeded":
        lines.append("- This battle's dice were seeded at the terminal: repeatable, not secret, not provable.")
    if secret is not None:
        lines += ["", DICE_MARK, "", "```json", _dice_json(document), "```"]
    return "\n".join(lines) + "\n"


def _drawn(count: int) -> str:
    if count == 0:
        return "none"
    return "1 die or card (draw 0)" if count == 1 else f"{count} dice and cards (draws 0 to {count - 1})"


def _dice_json(document: Mapping[str, Any]) -> str:
    """The dice document as JSON with one draw per line, so a reader can find a roll by eye."""
    head = {k: v for k, v in document.items() if k != "draws"}
    draws = [json.dumps(d, ensure_ascii=False) for d in document.get("draws", [])]
    text = json.dumps(head, ensure_ascii=False, indent=1)[:-2]
    text += ',\n "draws": [\n  ' + ",\n  ".join(draws) + "\n ]\n}"
    return text.replace("`", "\\u0060")  # a reason a player typed cannot close the Markdown block
