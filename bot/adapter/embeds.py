"""Cards as Discord embeds, cut to Discord's limits so a long game never breaks a message."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.app.replies import Card

TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FIELDS_MAX = 25
FOOTER_MAX = 2048
MESSAGE_EMBED_CHARS_MAX = 6000
EMBEDS_MAX = 10


def cut(text: str, limit: int) -> str:
    """``text`` no longer than ``limit``, ending with an ellipsis where it was cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


def cut_lines(text: str, limit: int) -> str:
    """Keep whole lines from the start while they fit; say how many were left out."""
    if len(text) <= limit:
        return text
    kept: list[str] = []
    lines = text.splitlines()
    used = 0
    for index, line in enumerate(lines):
        tail = f"… and {len(lines) - index} more"
        if used + len(line) + 1 + len(tail) > limit:
            kept.append(tail)
            break
        kept.append(line)
        used += len(line) + 1
    return cut("\n".join(kept), limit)


def card_size(card: Card) -> int:
    return (
        len(card.title)
        + len(card.description)
        + sum(len(n) + len(v) for n, v, _ in card.fields)
        + len(card.footer or "")
    )


def to_embed(card: Card) -> discord.Embed:
    embed = discord.Embed(
        title=cut(card.title, TITLE_MAX),
        description=cut_lines(card.description, DESCRIPTION_MAX) or None,
        colour=card.colour,
    )
    for name, value, inline in card.fields[:FIELDS_MAX]:
        embed.add_field(
            name=cut(name, FIELD_NAME_MAX) or "\u200b",
            value=cut_lines(value, FIELD_VALUE_MAX) or "\u200b",
            inline=inline,
        )
    if card.footer:
        embed.set_footer(text=cut(card.footer, FOOTER_MAX))
    if card.image:
        embed.set_image(url=f"attachment://{card.image}")
    return embed


def to_embeds(cards: Sequence[Card]) -> list[discord.Embed]:
    """At most ten embeds and 6,000 characters in all; what does not fit is summarised."""
    embeds: list[discord.Embed] = []
    total = 0
    for index, card in enumerate(cards[:EMBEDS_MAX]):
        embed = to_embed(card)
        if not embeds:
            embed = shrink(embed, MESSAGE_EMBED_CHARS_MAX - 60)
        size = len(embed)
        if total + size > MESSAGE_EMBED_CHARS_MAX or (index == EMBEDS_MAX - 1 and len(cards) > EMBEDS_MAX):
            left = len(cards) - index
            embeds.append(discord.Embed(title=f"… {left} more card(s) in /game log"))
            break
        embeds.append(embed)
        total += size
    return embeds


def shrink(embed: discord.Embed, budget: int) -> discord.Embed:
    """Drop fields from the end, then cut the description, until ``embed`` fits ``budget``."""
    while len(embed) > budget and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if len(embed) > budget and embed.description:
        room = max(1, len(embed.description) - (len(embed) - budget))
        embed.description = cut(embed.description, room)
    return embed
