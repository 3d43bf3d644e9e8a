"""Turn what happened (events, dice, boards) into cards a player reads, and cards into plain text
for the terminal and the logs (:func:`card_text`).

What the rules say and what players named is plain text: it goes into a card through
:func:`bot.render.shown.shown`, so a name made before names were checked still shows as itself.
Footers are not escaped: Discord shows them as written, without markdown."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from bot.app.replies import Card
from bot.dice import RolledDie
from bot.render.grid_image import grid_png
from bot.render.grid_text import grid_text
from bot.render.shown import hold_escapes, printable, release_escapes, shown, shown_event, side_colour, told
from rules.core import Board, CasualtyPayload, Event, VictoryPayload, WoundPayload, payload_of

DIE = "🎲"
CARD = "🂠"
SKULL = "☠"
WOUND = "🩸"
BOARD_PICTURE = "board.png"
TROPHY = "🏆"


def roll_line(rolled: RolledDie) -> str:
    if rolled.kind == "card":
        return f"{CARD} **{shown(str(rolled.value))}** — {shown(rolled.reason)}"
    return f"{DIE} d{rolled.sides} → **{rolled.value}** — {shown(rolled.reason)}"


def action_cards(
    title: str, actor: str, side: str | None, events: Sequence[Event], rolls: Sequence[RolledDie]
) -> list[Card]:
    """The public dice card for one action, then a casualty card per removal and a victory card."""
    main = Card(
        title=shown(title),
        description="\n".join(shown_event(e) for e in told(events)) or "Nothing happened.",
        colour=side_colour(side),
        footer=f"by {actor}",
    )
    if rolls:
        main.fields.append(("Dice", "\n".join(roll_line(r) for r in rolls), False))
    cards = [main]
    for event in events:
        if event.kind == "wound":
            cards.append(wound_card(event))
        elif event.kind == "casualty":
            cards.append(casualty_card(event))
        elif event.kind == "victory":
            winner = (payload_of(event, VictoryPayload) or VictoryPayload(None)).winner
            cards.append(
                Card(
                    title=f"{TROPHY} {shown(str(winner).title())} wins!",
                    description=shown(event.text),
                    colour=side_colour(winner),
                )
            )
    return cards


def casualty_card(event: Event) -> Card:
    """A figure out of the fight (its typed payload, :class:`rules.core.CasualtyPayload`)."""
    fallen = payload_of(event, CasualtyPayload) or CasualtyPayload("A figure", None, None)
    text = f"{fallen.figure} ({fallen.side}) is out of the fight" + (f", by {fallen.by}." if fallen.by else ".")
    return Card(
        title=f"{SKULL} Casualty: {shown(fallen.figure)}", description=shown(text), colour=side_colour(fallen.side)
    )


def wound_card(event: Event) -> Card:
    """A wound (its typed payload, :class:`rules.core.WoundPayload`): the body part or chart row in
    the title, and the effects now in force. A wound event without one shows its text alone."""
    wound = payload_of(event, WoundPayload) or WoundPayload("A figure")
    card = Card(
        title=shown(f"{WOUND} Wound: {wound.figure}" + (f" — {wound.heading}" if wound.heading else "")),
        description=shown(event.text),
        colour=side_colour(wound.side),
    )
    if wound.effects:
        card.fields.append(("Now in force", "\n".join(shown(str(line)) for line in wound.effects), False))
    return card


def board_card(title: str, board: Board, *, brief: bool = False) -> Card:
    """``/game status``: the headline, the facts, and every figure grouped by side. ``brief``, the
    board after an action: the headline and the grid alone (the grid's key names every figure)."""
    card = Card(title=shown(title), description=f"**{shown(board.headline)}**")
    if not brief:
        card.fields.extend((shown(name), shown(value), True) for name, value in board.facts)
        sides: dict[str, list[str]] = {}
        for line in board.figures:
            mark = "~~" if line.out else ""
            sides.setdefault(line.side, []).append(f"{mark}{shown(line.name)}{mark} — {shown(line.status)}")
        for side, lines in sides.items():
            card.fields.append((shown(side.title()), "\n".join(lines), False))
    active = next((value for name, value in board.facts if name.casefold() == "active"), None)
    card.colour = side_colour(active)
    if board.grid is not None:
        card.image = BOARD_PICTURE
        card.text_extra = grid_text(board.grid)
    return card


def board_files(board: Board) -> list[tuple[str, bytes]]:
    """The board's picture, for rulesets played on a grid."""
    return [(BOARD_PICTURE, grid_png(board.grid))] if board.grid is not None else []


_BOLD = re.compile(r"\*\*(.+?)\*\*")
_STRIKE = re.compile(r"~~(.+?)~~")


def plain(text: str) -> str:
    """Markdown emphasis dropped; strikethrough shown as [out]; escaped characters as themselves;
    control characters by their code."""
    text = _STRIKE.sub(r"\1 [out]", hold_escapes(text))
    return printable(release_escapes(_BOLD.sub(r"\1", text).replace("`", "")))


def card_text(card: Card) -> str:
    lines = [f"== {plain(card.title)} =="]
    if card.description:
        lines.extend(plain(card.description).splitlines())
    inline = [(n, v) for n, v, is_inline in card.fields if is_inline]
    if inline:
        lines.append(" · ".join(f"{plain(n)}: {plain(v)}" for n, v in inline))
    for name, value, is_inline in card.fields:
        if not is_inline:
            lines.append(f"{plain(name)}:")
            lines.extend(f"  {plain(v)}" for v in value.splitlines())
    extra = card.text_extra() if callable(card.text_extra) else card.text_extra
    if extra:
        lines.append(extra)
    if card.footer:
        lines.append(f"({plain(card.footer)})")
    return "\n".join(lines)


def cards_text(cards: Iterable[Card]) -> str:
    return "\n".join(card_text(c) for c in cards)
