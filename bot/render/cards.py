"""Turn what happened (events, dice, boards) into cards a player reads."""

from __future__ import annotations

from collections.abc import Sequence

from bot.app.replies import Card, side_colour
from bot.dice import RolledDie
from bot.render.grid_image import grid_png
from bot.render.grid_text import grid_text
from rules.core import Board, Event

DIE = "🎲"
CARD = "🂠"
SKULL = "☠"
WOUND = "🩸"
BOARD_PICTURE = "board.png"
TROPHY = "🏆"


def roll_line(rolled: RolledDie) -> str:
    if rolled.kind == "card":
        return f"{CARD} **{rolled.value}** — {rolled.reason}"
    return f"{DIE} d{rolled.sides} → **{rolled.value}** — {rolled.reason}"


def action_cards(
    title: str, actor: str, side: str | None, events: Sequence[Event], rolls: Sequence[RolledDie]
) -> list[Card]:
    """The public dice card for one action, then a casualty card per removal and a victory card."""
    main = Card(
        title=title,
        description="\n".join(e.text for e in events) or "Nothing happened.",
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
            figure = str(event.data.get("figure", "A figure"))
            fallen_side = event.data.get("side")
            cause = event.data.get("by")
            text = f"{figure} ({fallen_side}) is out of the fight" + (f", by {cause}." if cause else ".")
            cards.append(Card(title=f"{SKULL} Casualty: {figure}", description=text, colour=side_colour(fallen_side)))
        elif event.kind == "victory":
            winner = event.data.get("winner")
            cards.append(
                Card(title=f"{TROPHY} {str(winner).title()} wins!", description=event.text, colour=side_colour(winner))
            )
    return cards


def wound_card(event: Event) -> Card:
    """A wound: the body part or chart row, and the effects now in force.

    Reads ``figure``, ``side``, and where the ruleset gives them ``row`` (or ``location``) and
    ``penalties`` (or ``effects``): text or a list of lines.
    """
    data = event.data
    figure = str(data.get("figure", "A figure"))
    row = data.get("row") or data.get("location")
    row = str(row).replace("_", " ") if row else row  # a body part's key ("left_arm") as words
    card = Card(
        title=f"{WOUND} Wound: {figure}" + (f" — {row}" if row else ""),
        description=event.text,
        colour=side_colour(data.get("side")),
    )
    effects = data.get("penalties", data.get("effects"))
    if effects:
        lines = effects if isinstance(effects, (list, tuple)) else [effects]
        card.fields.append(("Now in force", "\n".join(str(line) for line in lines), False))
    return card


def board_card(title: str, board: Board) -> Card:
    """``/game status``: the headline, the facts, and every figure grouped by side."""
    card = Card(title=title, description=f"**{board.headline}**")
    card.fields.extend((name, value, True) for name, value in board.facts)
    sides: dict[str, list[str]] = {}
    for line in board.figures:
        mark = "~~" if line.out else ""
        sides.setdefault(line.side, []).append(f"{mark}{line.name}{mark} — {line.status}")
    for side, lines in sides.items():
        card.fields.append((side.title(), "\n".join(lines), False))
    active = next((value for name, value in board.facts if name.casefold() == "active"), None)
    card.colour = side_colour(active)
    if board.grid is not None:
        card.image = BOARD_PICTURE
        card.text_extra = grid_text(board.grid)
    return card


def board_files(board: Board) -> list[tuple[str, bytes]]:
    """The board's picture, for rulesets played on a grid."""
    return [(BOARD_PICTURE, grid_png(board.grid))] if board.grid is not None else []
