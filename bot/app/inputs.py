"""What players type, read and written back: names and stats."""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping
from typing import Any

from bot.app.lookalike import look_alike
from bot.app.name_rules import refuse_unsafe
from bot.app.replies import Refusal
from rules.core import short

NAME_MAX = 64
CAMPAIGN_NAME_MAX = 100
STATS_MAX = 400


def parse_stats(text: str | None) -> dict[str, Any]:
    """``'I=4 D=3 armour="mailshirt, small shield"'`` as a mapping; numbers become ints.

    Pairs are separated by spaces (a comma after a pair is allowed); a value with spaces is quoted.
    """
    if not text:
        return {}
    if len(text) > STATS_MAX:
        raise Refusal(f"Stats are at most {STATS_MAX} characters.")
    try:
        tokens = shlex.split(text)
    except ValueError:
        raise Refusal("Stats have an unclosed quote.") from None
    stats: dict[str, Any] = {}
    for token in tokens:
        key, sep, value = token.rstrip(",").partition("=")
        if not sep or not key or not value:
            raise Refusal(f"Write stats as key=value pairs, like I=4 D=3; {short(token)} is not one.")
        stats[key] = int(value) if value.lstrip("-").isdigit() else value
    return stats


def clean_name(name: str, what: str, limit: int = NAME_MAX) -> str:
    """A name with surrounding and repeated white space folded; refused when empty, too long, or
    holding a mention, a markdown character or an invisible one (:mod:`bot.app.name_rules`).

    Characters are checked before inner white space is folded, so a line break or a tab inside a
    name is named rather than quietly turned into a space."""
    stripped = (name or "").strip()
    cleaned = " ".join(stripped.split())
    if not cleaned or not any(ch.isalnum() for ch in cleaned):
        raise Refusal(f"A {what} needs a name with a letter or digit in it.")
    refuse_unsafe(stripped, what)
    if len(cleaned) > limit:
        raise Refusal(f"A {what} name is at most {limit} characters.")
    return cleaned


def refuse_look_alike(name: str, others: Iterable[str], what: str) -> None:
    """A :class:`Refusal` when ``name`` looks like one of ``others`` (the campaign's names) without
    being it: in another script, in fullwidth letters or in other capitals ("Rоssi", "ROSSI")."""
    similar = look_alike(name, (other for other in others if other != name))
    if similar is not None:
        raise Refusal(
            f"{short(name)} looks like {short(similar)}, already a {what} in this campaign: "
            "choose a name players can tell apart."
        )


def format_stats(stats: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in stats.items())
