"""campaigns: an index on (channel_id, guild_id), the lookup every command makes

Revision ID: 0005_campaign_channel_index
Revises: 0004_battle_number
Create Date: 2026-11-22

Found by the benchmark: with a thousand campaigns in one guild, finding a channel's campaign went
through the guild's index and read every campaign of that guild.
"""
from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0005_campaign_channel_index"
down_revision: str | Sequence[str] | None = "0004_battle_number"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_campaigns_channel_id_guild_id", "campaigns", ["channel_id", "guild_id"])


def downgrade() -> None:
    op.drop_index("ix_campaigns_channel_id_guild_id", table_name="campaigns")
