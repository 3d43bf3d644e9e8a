"""How a card shows what players wrote and whose it is: text made safe to show (escaped for
Discord's markdown, readable at a terminal) and the colour of each side (:func:`side_colour`).

New names cannot hold markdown, mentions or invisible characters (``bot.app.name_rules``), but
names made before that check are still in the databases, and event texts and dice reasons carry
names inside them. Everything that is plain text (what the rules say, what players typed) goes
through :func:`shown` on its way into an embed or a message (a refusal's whole sentence in
``Reply.error``; not a footer, which Discord shows as plain text); the terminal takes the escapes out again
(:func:`hold_escapes`, :func:`release_escapes`) and shows steering characters by their code
(:func:`printable`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.render.characters import MARKDOWN
from rules.core import Event

#: Events whose text is markdown already: a free roll (``/roll``) is d20's rendering of its dice
#: (bold criticals, struck dropped dice, the total in a code span).
MARKDOWN_EVENTS = frozenset({"roll"})

_SPECIAL = re.compile(f"([{re.escape(''.join(MARKDOWN))}])")
_LINE_MARKER = re.compile(r"^(\s*)(?:([-+])|(\d+)([.)]))(?=\s)", re.MULTILINE)
_ESCAPED = re.compile(r"\\([\\`*_~|<>#\[\]\-+.)])")
#: Where an escaped character waits while markdown is taken out around it (supplementary private use).
_HELD = 0xF0000
_HELD_CHARS = re.compile("[\U000f0000-\U000f007f]")
#: Characters that could rewrite or reorder what a terminal shows: controls and direction overrides.
_STEERING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def shown(text: str) -> str:
    """``text`` as itself in Discord markdown: ``*``, ``_``, ``~``, backticks, ``|``, ``<``, ``>``,
    ``#``, brackets and backslashes escaped, and a list marker at a line's start too. Line breaks stay."""
    escaped = _SPECIAL.sub(r"\\\1", str(text))
    return _LINE_MARKER.sub(_escape_marker, escaped)


def shown_event(event: Event) -> str:
    """An event's text for a card or a report: the rules write plain text, shown escaped; a free
    roll's text is markdown already and is shown as it is."""
    return event.text if event.kind in MARKDOWN_EVENTS else shown(event.text)


def told(events: Iterable[Event]) -> list[Event]:
    """The events a card or the log prints a line for: an event with no text is data alone (its
    line folded into another's, as :mod:`bot.app.sole_choice` folds a one-answer choice)."""
    return [e for e in events if e.text]


def _escape_marker(match: re.Match[str]) -> str:
    indent, sign, number, stop = match.groups()
    return f"{indent}\\{sign}" if sign else f"{indent}{number}\\{stop}"


def hold_escapes(text: str) -> str:
    """``text`` with each escaped character (``\\*``) set aside, so markdown can be taken out around
    it without touching it; :func:`release_escapes` gives it back, unescaped."""
    return _ESCAPED.sub(lambda m: chr(_HELD + ord(m.group(1))), text)


def release_escapes(text: str) -> str:
    return _HELD_CHARS.sub(lambda m: chr(ord(m.group()) - _HELD), text)


def printable(text: str) -> str:
    """``text`` with each control or direction-override character written as its code (``<U+001B>``),
    so a name cannot move the cursor, colour or reorder a terminal. Line breaks and tabs stay."""
    return _STEERING.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


#: A card's colour by whose it is: a side's, or no side's.
NEUTRAL_COLOUR = 0x7F8C8D
SIDE_COLOURS = {
    "red": 0xE74C3C,
    "blue": 0x3498DB,
    "british": 0xC0392B,
    "french": 0x2E4A9E,
    "allied": 0xC0392B,
}


def side_colour(side: str | None) -> int:
    if side is None:
        return NEUTRAL_COLOUR
    return SIDE_COLOURS.get(side.casefold(), 0x16A085)
