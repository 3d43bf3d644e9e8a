"""actions keep the action as data, so a game can be replayed from its log

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("actions", sa.Column("action", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    op.drop_column("actions", "action")
