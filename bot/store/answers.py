"""Answers owed: actions applied from an interaction whose answer Discord has not taken yet.

The flag is written with the action (:meth:`bot.store.play.Play.append_action`), in its
transaction, and cleared once the answer went; so a bot killed between the two finds, on restart,
every action applied that nobody was told of, and says so in its channel.
"""

from __future__ import annotations

from sqlalchemy import and_, bindparam, exists, false, select, update

from bot.store.columns import actions, campaigns, events, games, members, rolls
from bot.store.records import OwedAnswer
from bot.store.schema import ANSWER_OWED
from bot.store.tx import Tx

FIRST_EVENT = (
    select(events.c.text).where(events.c.action_id == actions.c.id).order_by(events.c.seq).limit(1).scalar_subquery()
)
SECRET = exists().where(rolls.c.action_id == actions.c.id, rolls.c.secret.is_(True))
OWED = (
    select(
        actions.c.id,
        campaigns.c.guild_id,
        campaigns.c.channel_id,
        actions.c.user_id,
        members.c.display_name,
        actions.c.command,
        FIRST_EVENT,
        SECRET,
    )
    .join(games, games.c.id == actions.c.game_id)
    .join(campaigns, campaigns.c.id == games.c.campaign_id)
    .outerjoin(members, and_(members.c.campaign_id == campaigns.c.id, members.c.user_id == actions.c.user_id))
    .where(ANSWER_OWED)
)
OWED_TO = OWED.where(actions.c.interaction_id == bindparam("interaction"))
ANSWERED = (
    update(actions).where(actions.c.interaction_id == bindparam("interaction"), ANSWER_OWED).values(answer_owed=false())
)
SETTLED = update(actions).where(actions.c.id == bindparam("entry"), ANSWER_OWED).values(answer_owed=false())


class Answers:
    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    async def answered(self, interaction_id: int) -> bool:
        """The answer to ``interaction_id`` went: it is owed no more. Whether it was owed."""
        return await self._tx.run(ANSWERED, {"interaction": interaction_id}) > 0

    async def owed(self, interaction_id: int | None = None) -> list[OwedAnswer]:
        """Every action whose answer is still owed (only the one applied from ``interaction_id``
        when given), oldest first."""
        if interaction_id is None:
            rows = await self._tx.rows(OWED)
        else:
            rows = await self._tx.rows(OWED_TO, {"interaction": interaction_id})
        rows = sorted(rows)  # by id, in Python: an ORDER BY made SQLite scan the table
        return [
            OwedAnswer(action_id, guild, channel, user, name, command, said, bool(secret))
            for action_id, guild, channel, user, name, command, said, secret in rows
        ]

    async def settle(self, action_ids: list[int]) -> None:
        """These actions were told of another way (in their channel): owed no more."""
        if action_ids:
            await self._tx.run(SETTLED, [{"entry": action_id} for action_id in action_ids])
