"""The characters that do something other than show themselves: Discord's markdown characters, and
the invisible ones (controls, format characters, variation selectors, the letters that draw nothing).

One table for the name rules that refuse them in new names (``bot.app.name_rules``), the escaping
that shows old names as written (:mod:`bot.render.shown`, the report) and the pictures.
"""

from __future__ import annotations

import unicodedata

#: Markdown characters Discord acts on, each as a player would call it.
MARKDOWN: dict[str, str] = {
    "*": "the asterisk (*)",
    "_": "the underscore (_)",
    "~": "the tilde (~)",
    "`": "the backtick (`)",
    "|": "the vertical bar (|)",
    ">": "the greater-than sign (>)",
    "<": "the less-than sign (<)",
    "#": "the hash sign (#)",
    "[": "the square bracket ([)",
    "]": "the square bracket (])",
    "\\": "the backslash (\\)",
}

#: Invisible characters with a name players know; the others are named by Unicode.
KNOWN_INVISIBLE: dict[str, str] = {
    "\t": "the tab",
    "\n": "the line break",
    "\r": "the carriage return",
    "\x1b": "the escape character",
    "\x00": "the null character",
    "\u00ad": "the soft hyphen",
    "\u034f": "the combining grapheme joiner",
    "\u115f": "the Hangul choseong filler",
    "\u1160": "the Hangul jungseong filler",
    "\u17b4": "the Khmer vowel inherent AQ",
    "\u17b5": "the Khmer vowel inherent AA",
    "\u180e": "the Mongolian vowel separator",
    "\u200b": "the zero-width space",
    "\u200c": "the zero-width non-joiner",
    "\u200d": "the zero-width joiner",
    "\u200e": "the left-to-right mark",
    "\u200f": "the right-to-left mark",
    "\u2028": "the line separator",
    "\u2029": "the paragraph separator",
    "\u2060": "the word joiner",
    "\u2061": "the invisible function application",
    "\u2062": "the invisible times",
    "\u2063": "the invisible separator",
    "\u2064": "the invisible plus",
    "\u2800": "the braille pattern blank",
    "\u3164": "the Hangul filler",
    "\ufeff": "the zero-width no-break space (byte order mark)",
    "\uffa0": "the halfwidth Hangul filler",
}

_INVISIBLE_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Co", "Cs"}
_UNNAMED = {"Cc": "a control character", "Co": "a private-use character", "Cs": "a lone surrogate"}


def invisible_kind(ch: str) -> str | None:
    """What ``ch`` is, as a refusal names it, when it draws nothing or steers the text around it
    ("the zero-width space", "a variation selector"); None when it shows itself."""
    if ch in KNOWN_INVISIBLE:
        return KNOWN_INVISIBLE[ch]
    code = ord(ch)
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        return "a variation selector"
    if 0xE0000 <= code <= 0xE007F:
        return "a tag character"
    category = unicodedata.category(ch)
    if category not in _INVISIBLE_CATEGORIES:
        return None
    if category in _UNNAMED:
        return _UNNAMED[category]
    unicode_name = unicodedata.name(ch, "")
    return f"the {unicode_name.lower()}" if unicode_name else "an invisible character"


def is_invisible(ch: str) -> bool:
    """Whether ``ch`` draws nothing or steers the text around it rather than showing itself."""
    return invisible_kind(ch) is not None
