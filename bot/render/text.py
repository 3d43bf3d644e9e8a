"""Cards as plain text, for the terminal front-end and the logs."""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.app.replies import Card
from bot.render.shown import hold_escapes, printable, release_escapes

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
    extra = card.terminal_text()
    if extra:
        lines.append(extra)
    if card.footer:
        lines.append(f"({plain(card.footer)})")
    return "\n".join(lines)


def cards_text(cards: Iterable[Card]) -> str:
    return "\n".join(card_text(c) for c in cards)
