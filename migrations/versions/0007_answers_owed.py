"""actions: whether the answer to the interaction that applied one is still owed

Revision ID: 0007_answers_owed
Revises: 0006_provable_dice
Create Date: 2026-11-28

Set in the transaction that applies an action from an interaction, cleared once Discord took its
answer; a bot killed in between finds it on restart and says in the channel what was applied. The
partial index holds only the few owed rows, so the look on start-up reads nothing else. Actions
already in the database owe nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_answers_owed"
down_revision: str | Sequence[str] | None = "0006_provable_dice"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("actions", sa.Column("answer_owed", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_index(
        "ix_actions_answer_owed",
        "actions",
        ["answer_owed"],
        sqlite_where=sa.text("answer_owed"),
        postgresql_where=sa.text("answer_owed"),
    )


def downgrade() -> None:
    op.drop_index("ix_actions_answer_owed", table_name="actions")
    op.drop_column("actions", "answer_owed")
