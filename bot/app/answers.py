"""Answers that survive a crash: what was applied but never answered is said in its channel.

An action applied from an interaction owes that interaction its answer from the transaction that
applied it (the store keeps the flag with the log entry) until the front end says Discord took the
answer (:meth:`OwedAnswers.answered`). A bot killed in between left players with "The application
did not respond" for an action that was in fact done, and a retry would do it again; on its next
start the bot posts, once per channel, what was applied (:meth:`OwedAnswers.unanswered`), and then
holds those answers given (:meth:`OwedAnswers.settle`). An answer that missed Discord's 3 seconds
(the interaction was gone when it was sent) is said in its channel at once the same way
(:meth:`OwedAnswers.missed`), not left owed until a restart.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from bot.app.context import Context
from bot.app.replies import Card, Reply
from bot.render.shown import shown
from bot.store.records import OwedAnswer

#: Actions listed at the most in one channel's notice (the rest are counted, and are in /game log).
LISTED = 10
#: Characters at the most of an action's line in the notice.
LINE = 180
TITLE = "Applied, but never answered"
LEAD = "The bot stopped before it could answer these; they were applied, so do not send them again:"
LATE_TITLE = "Applied, but answered late"
LATE_LEAD = "Discord gave up waiting for this answer; it was applied, so do not send it again:"


@dataclass(frozen=True)
class OwedNotice:
    """One channel's notice of the actions applied there but never answered."""

    guild_id: int
    channel_id: int
    reply: Reply
    action_ids: list[int]


def line_of(owed: OwedAnswer) -> str:
    """``Rita: /ssg shoot shooter:Rossi target:Bo — Rossi hits Bo …`` (a secret roll's result stays secret)."""
    who = owed.display_name or "A player"
    said = "" if owed.secret or not owed.said else f" — {owed.said}"
    text = f"{who}: {owed.command}{said}"
    if len(text) > LINE:
        text = text[: LINE - 1] + "…"
    return f"• {shown(text)}"


def notice(
    guild_id: int, channel_id: int, owed: list[OwedAnswer], *, title: str = TITLE, lead: str = LEAD
) -> OwedNotice:
    lines = [line_of(o) for o in owed[:LISTED]]
    if len(owed) > LISTED:
        lines.append(f"…and {len(owed) - LISTED} more: see /game log.")
    card = Card(title=title, description="\n".join([lead, *lines]))
    return OwedNotice(guild_id, channel_id, Reply(cards=[card]), [o.action_id for o in owed])


class OwedAnswers:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def answered(self, interaction_id: int) -> None:
        """Discord took the answer to ``interaction_id``: nothing is owed to it any more."""
        async with self.ctx.store.transaction() as u:
            await u.answers.answered(interaction_id)

    async def unanswered(self) -> list[OwedNotice]:
        """One notice per channel of the actions applied there whose answer never went, oldest first."""
        async with self.ctx.store.transaction() as u:
            owed = await u.answers.owed()
        by_channel: defaultdict[tuple[int, int], list[OwedAnswer]] = defaultdict(list)
        for answer in owed:
            by_channel[answer.guild_id, answer.channel_id].append(answer)
        return [notice(guild, channel, found) for (guild, channel), found in by_channel.items()]

    async def missed(self, interaction_id: int) -> OwedNotice | None:
        """The notice of the action applied from ``interaction_id`` whose answer could not go (the
        interaction was gone: Discord's 3 seconds ran out); None when nothing is owed to it."""
        async with self.ctx.store.transaction() as u:
            owed = await u.answers.owed(interaction_id)
        if not owed:
            return None
        return notice(owed[0].guild_id, owed[0].channel_id, owed, title=LATE_TITLE, lead=LATE_LEAD)

    async def settle(self, found: OwedNotice) -> None:
        """``found`` was posted (or cannot be): its actions are owed no more."""
        async with self.ctx.store.transaction() as u:
            await u.answers.settle(found.action_ids)
