"""deadlines: play-by-chat pace (what a game waits on, when it is due, the reminder, the timeout)

Revision ID: 0003_pace
Revises: 0002
Create Date: 2026-11-29

Runs on SQLite and PostgreSQL alike. The partial unique index (one current wait per game) carries
its WHERE clause for both dialects.
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_pace"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "deadlines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("decision_id", sa.Integer(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("side", sa.String(length=32), nullable=False),
        sa.Column("on_timeout", sa.String(length=8), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("remind_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reminded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("expired_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.Text(), nullable=True),
        sa.Column("game_version", sa.Integer(), nullable=False),
        sa.CheckConstraint("status IN ('open', 'expired', 'closed')", name=op.f("ck_deadlines_status")),
        sa.CheckConstraint("kind IN ('turn', 'decision')", name=op.f("ck_deadlines_kind")),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"], name=op.f("fk_deadlines_campaign_id_campaigns"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_deadlines_game_id_games"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["decision_id"], ["decisions.id"], name=op.f("fk_deadlines_decision_id_decisions"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deadlines")),
    )
    op.create_index(op.f("ix_deadlines_status_due_at"), "deadlines", ["status", "due_at"], unique=False)
    op.create_index(
        op.f("uq_deadlines_current_game"), "deadlines", ["game_id"], unique=True,
        sqlite_where=sa.text("status IN ('open', 'expired')"),
        postgresql_where=sa.text("status IN ('open', 'expired')"),
    )


def downgrade() -> None:
    op.drop_index(op.f("uq_deadlines_current_game"), table_name="deadlines")
    op.drop_index(op.f("ix_deadlines_status_due_at"), table_name="deadlines")
    op.drop_table("deadlines")
