"""What a figure, unit or campaign name may hold, so that showing it can never ping, format or hide.

A name is shown in embeds (Discord markdown), in messages that may ping, in pictures and at the
terminal. Three kinds of text are refused, each with a sentence naming what is wrong:

* mentions (``<@…>``, ``<@!…>``, ``<@&…>``, ``<#…>``, ``</cmd:id>``, ``@everyone``, ``@here``): they
  would ping, or look like a ping;
* Discord's markdown characters (``* _ ~ ` | > < # [ ] \\``), and a list marker at the start:
  they would turn the rest of a line bold, struck, hidden or quoted. The apostrophe, hyphen, full
  stop, comma, brackets and every letter of every script stay allowed ("O'Brien", "Jean-Luc",
  "Sgt. Harper", "Дмитрий");
* invisible characters: controls (Cc), format characters (Cf: zero-width spaces and joiners,
  direction marks, the soft hyphen, the byte order mark, tags), line and paragraph separators,
  variation selectors, private-use code points, and the letters that draw nothing (Hangul fillers,
  the braille blank): two names that differ only by one look the same.
"""

from __future__ import annotations

import re
import unicodedata

from bot.app.replies import Refusal
from bot.render.characters import MARKDOWN, invisible_kind, is_invisible

_MENTIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"<@&"), "a role mention (<@&…>)"),
    (re.compile(r"<@!?\d*"), "a user mention (<@…>)"),
    (re.compile(r"<#"), "a channel mention (<#…>)"),
    (re.compile(r"</[^>]*:"), "a command mention (</…:…>)"),
    (re.compile(r"@everyone", re.IGNORECASE), "@everyone"),
    (re.compile(r"@here", re.IGNORECASE), "@here"),
)

_LIST_MARKER = re.compile(r"^(?:[-+]|\d+[.)])\s")
_LINK = re.compile(r"://")


def describe(ch: str) -> str:
    """``ch`` as a refusal names it: "the zero-width space (U+200B)", "the asterisk (*)"."""
    if ch in MARKDOWN:
        return MARKDOWN[ch]
    known = invisible_kind(ch)
    if known is None:
        unicode_name = unicodedata.name(ch, "")
        known = f"the {unicode_name.lower()}" if unicode_name else "an invisible character"
    return f"{known} (U+{ord(ch):04X})"


def refuse_unsafe(name: str, what: str) -> None:
    """A :class:`Refusal` when ``name`` holds a mention, a markdown character or an invisible one;
    the first thing found is named. ``what`` is "figure", "unit", "campaign" …"""
    for ch in name:
        if is_invisible(ch):
            raise Refusal(
                f"A {what} name may not hold {describe(ch)}: it cannot be seen, "
                "so two names could look the same. Type the name again without it."
            )
    for pattern, mention in _MENTIONS:
        if pattern.search(name):
            raise Refusal(f"A {what} name may not hold {mention}: on Discord it would ping or look like a ping.")
    for ch in name:
        if ch in MARKDOWN:
            raise Refusal(f"A {what} name may not hold {describe(ch)}: Discord reads it as formatting.")
    if _LIST_MARKER.match(name):
        raise Refusal(f"A {what} name may not start with {name.split()[0]} and a space: Discord shows it as a list.")
    if _LINK.search(name):
        raise Refusal(f"A {what} name may not hold a link (://).")
