"""Campaigns and their members: which campaign a channel runs, who plays in it, and as what."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, insert, select, update

from bot.store.column_values import utcnow
from bot.store.columns import build, campaigns, columns_of, members
from bot.store.play import HERE, NAME_LIMIT, Play
from bot.store.records import Campaign, Member
from bot.store.tx import Tx

_CAMPAIGN = columns_of(campaigns, Campaign)
_MEMBER = columns_of(members, Member)
CAMPAIGN_HERE = select(*_CAMPAIGN).where(HERE)
ACTIVE_IN_CHANNEL = select(*_CAMPAIGN).where(
    campaigns.c.channel_id == bindparam("channel"), campaigns.c.active.is_(True)
)
CAMPAIGN_BY_ID = select(*_CAMPAIGN).where(campaigns.c.id == bindparam("campaign"))
CAMPAIGN_BY_ID_LOCKED = CAMPAIGN_BY_ID.with_for_update()
RENAME_CAMPAIGN = update(campaigns).where(campaigns.c.id == bindparam("campaign")).values(name=bindparam("new_name"))
INSERT_CAMPAIGN = insert(campaigns).returning(campaigns.c.id)
END_CAMPAIGN = update(campaigns).where(campaigns.c.id == bindparam("campaign")).values(active=False)
SET_SETTINGS = (
    update(campaigns)
    .where(campaigns.c.id == bindparam("campaign"))
    .values(settings=bindparam("settings", type_=campaigns.c.settings.type))
)
SET_HOUSE_RULES = (
    update(campaigns)
    .where(campaigns.c.id == bindparam("campaign"))
    .values(house_rules=bindparam("rules", type_=campaigns.c.house_rules.type))
)

MEMBER = select(*_MEMBER).where(members.c.campaign_id == bindparam("campaign"), members.c.user_id == bindparam("user"))
MEMBERS = select(*_MEMBER).where(members.c.campaign_id == bindparam("campaign")).order_by(members.c.id)
INSERT_MEMBER = insert(members).returning(members.c.id)
SET_MEMBER = (
    update(members)
    .where(members.c.id == bindparam("member"))
    .values(side=bindparam("new_side"), role=bindparam("new_role"))
)
DELETE_MEMBER = members.delete().where(members.c.id == bindparam("member"))
GM_USER_IDS = select(members.c.user_id).where(members.c.campaign_id == bindparam("campaign"), members.c.role == "gm")
SIDE_USER_IDS = select(members.c.user_id).where(
    members.c.campaign_id == bindparam("campaign"),
    members.c.side == bindparam("side"),
    members.c.role != "pending",
)


class Campaigns:
    """The campaigns table, in the application's words."""

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    async def here(self, guild_id: int, channel_id: int) -> Campaign | None:
        """The active campaign of a channel."""
        row = await self._tx.first(CAMPAIGN_HERE, {"guild": guild_id, "channel": channel_id})
        return None if row is None else build(Campaign, row)

    async def active_in_channel(self, channel_id: int) -> Campaign | None:
        row = await self._tx.first(ACTIVE_IN_CHANNEL, {"channel": channel_id})
        return None if row is None else build(Campaign, row)

    async def get(self, campaign_id: int, *, lock: bool = False) -> Campaign:
        """The campaign; with ``lock``, row-locked for a change of its settings (PostgreSQL)."""
        row = await self._tx.first(CAMPAIGN_BY_ID_LOCKED if lock else CAMPAIGN_BY_ID, {"campaign": campaign_id})
        if row is None:
            raise LookupError(f"campaign {campaign_id} does not exist")
        return build(Campaign, row)

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        ruleset: str,
        gm_id: int,
        settings: dict[str, Any] | None = None,
        house_rules: Any = None,
    ) -> Campaign:
        values = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "name": name,
            "ruleset": ruleset,
            "gm_id": gm_id,
            "active": True,
            "house_rules": house_rules,
            "settings": dict(settings or {}),
            "created_at": utcnow(),
        }
        campaign_id = await self._tx.scalar(INSERT_CAMPAIGN, values)
        return Campaign(campaign_id, guild_id, channel_id, name, ruleset, gm_id, True, house_rules, values["settings"])

    async def end(self, campaign_id: int) -> None:
        await self._tx.run(END_CAMPAIGN, {"campaign": campaign_id})

    async def set_settings(self, campaign_id: int, settings: dict[str, Any]) -> None:
        await self._tx.run(SET_SETTINGS, {"campaign": campaign_id, "settings": dict(settings)})

    async def set_house_rules(self, campaign_id: int, rules: Any) -> None:
        await self._tx.run(SET_HOUSE_RULES, {"campaign": campaign_id, "rules": rules})

    async def rename(self, campaign_id: int, name: str) -> None:
        await self._tx.run(RENAME_CAMPAIGN, {"campaign": campaign_id, "new_name": name})


class Members:
    """Who plays in a campaign: the game master, players with a side, and those asking to join."""

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    async def of(self, campaign_id: int, user_id: int) -> Member | None:
        row = await self._tx.first(MEMBER, {"campaign": campaign_id, "user": user_id})
        return None if row is None else build(Member, row)

    async def all(self, campaign_id: int) -> list[Member]:
        return [build(Member, row) for row in await self._tx.rows(MEMBERS, {"campaign": campaign_id})]

    async def add(
        self, campaign_id: int, user_id: int, display_name: str, role: str, side: str | None = None
    ) -> Member:
        name = display_name[:NAME_LIMIT]
        member_id = await self._tx.scalar(
            INSERT_MEMBER,
            {
                "campaign_id": campaign_id,
                "user_id": user_id,
                "display_name": name,
                "role": role,
                "side": side,
                "joined_at": utcnow(),
            },
        )
        return Member(member_id, campaign_id, user_id, name, role, side)

    async def seen_as(self, member: Member, display_name: str) -> Member:
        """The member with the display name Discord shows now (written only when it changed)."""
        return await Play(self._tx).seen_as(member, display_name)

    async def set(self, member: Member, *, side: str | None, role: str | None = None) -> Member:
        """The member playing ``side`` (and, if given, with ``role``)."""
        role = role or member.role
        await self._tx.run(SET_MEMBER, {"member": member.id, "new_side": side, "new_role": role})
        return Member(member.id, member.campaign_id, member.user_id, member.display_name, role, side)

    async def remove(self, member_id: int) -> None:
        await self._tx.run(DELETE_MEMBER, {"member": member_id})

    async def user_ids_of(self, campaign_id: int, side: str | None) -> list[int]:
        """Who plays ``side`` (the game master for ``"gm"``): the players to ping."""
        if side is None:
            return []
        if side == "gm":
            return [row[0] for row in await self._tx.rows(GM_USER_IDS, {"campaign": campaign_id})]
        return [row[0] for row in await self._tx.rows(SIDE_USER_IDS, {"campaign": campaign_id, "side": side})]
