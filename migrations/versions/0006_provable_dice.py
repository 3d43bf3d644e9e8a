"""provable dice: each battle's secret, commitment and next draw; each die's draw number; the
campaign's stream for free rolls between battles

Revision ID: 0006_provable_dice
Revises: 0005_campaign_channel_index
Create Date: 2026-11-24

Runs on SQLite (3.35 or newer drops a column in place) and PostgreSQL. Battles already in the
database get no secret: they finish on the dice they began with, and their cards say so. The
downgrade drops the streams and the columns (the secrets of battles begun since are lost with them,
and those battles go on with unprovable dice).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_provable_dice"
down_revision: str | Sequence[str] | None = "0005_campaign_channel_index"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

GAME_COLUMNS = ("dice_secret", "dice_commitment", "dice_next", "dice_note")
ROLL_COLUMNS = ("draw", "pool", "position")


def upgrade() -> None:
    op.add_column("games", sa.Column("dice_secret", sa.String(length=64), nullable=True))
    op.add_column("games", sa.Column("dice_commitment", sa.String(length=64), nullable=True))
    op.add_column("games", sa.Column("dice_next", sa.Integer(), server_default="0", nullable=False))
    op.add_column("games", sa.Column("dice_note", sa.String(length=20), nullable=True))
    for name in ROLL_COLUMNS:
        op.add_column("rolls", sa.Column(name, sa.Integer(), nullable=True))
    op.create_table(
        "roll_streams",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("secret", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("next_draw", sa.Integer(), nullable=False),
        sa.Column("note", sa.String(length=20), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revealed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaigns.id"], name="fk_roll_streams_campaign_id_campaigns", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_roll_streams"),
    )
    op.create_index("ix_roll_streams_campaign_id", "roll_streams", ["campaign_id"])
    op.create_table(
        "free_rolls",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("stream_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("interaction_id", sa.BigInteger(), nullable=True),
        sa.Column("command", sa.Text(), nullable=False),
        sa.Column("draws", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["stream_id"], ["roll_streams.id"], name="fk_free_rolls_stream_id_roll_streams", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_free_rolls"),
        sa.UniqueConstraint("stream_id", "seq", name="uq_free_rolls_stream_id_seq"),
        sa.UniqueConstraint("interaction_id", name="uq_free_rolls_interaction_id"),
    )


def downgrade() -> None:
    op.drop_table("free_rolls")
    op.drop_index("ix_roll_streams_campaign_id", table_name="roll_streams")
    op.drop_table("roll_streams")
    for name in ROLL_COLUMNS:
        op.drop_column("rolls", name)
    for name in GAME_COLUMNS:
        op.drop_column("games", name)
