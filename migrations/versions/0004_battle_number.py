"""games: a battle number per campaign (1, 2, 3 in each campaign), instead of the database-wide id

Revision ID: 0004_battle_number
Revises: 0003_pace
Create Date: 2026-12-06

Runs on SQLite (batch mode: the NOT NULL and the unique constraint rebuild the table, from the
table as 0001 made it, so its CHECK constraint and partial index come back) and on PostgreSQL.

The upgrade numbers the existing games of each campaign 1, 2, 3 in the order they were made (their
id), and rewrites the figures' history to match: an entry ``{"battle": <game id>}`` written by
the after-battle rules becomes ``{"battle": <number>}`` (with a note that begins "Battle <id>:"
following it), when that id is one of the figure's own campaign's games; an entry that names no
game of the campaign (one imported from a file) is kept as written. The downgrade does the
reverse. The history is plain JSON, rewritten in Python: in ``--sql`` (offline) mode only the
schema and the numbering are printed, not the history's rewrite.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import context, op

revision: str = "0004_battle_number"
down_revision: str | Sequence[str] | None = "0003_pace"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NUMBER_BY_ID = """
UPDATE games SET number = numbered.n
FROM (SELECT id, row_number() OVER (PARTITION BY campaign_id ORDER BY id) AS n FROM games) AS numbered
WHERE numbered.id = games.id
"""


def _games(*, number: bool, unique: bool = False) -> sa.Table:
    """The games table as it stands before a batch operation (SQLite rebuilds it from this)."""
    columns = [
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("ruleset", sa.String(length=20), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("winner", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    ]
    if number:
        columns.append(sa.Column("number", sa.Integer(), nullable=not unique))
    constraints: list[Any] = [
        sa.CheckConstraint("status IN ('active', 'ended')", name="ck_games_status"),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"], name="fk_games_campaign_id_campaigns", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    ]
    if unique:
        constraints.append(sa.UniqueConstraint("campaign_id", "number", name="uq_games_campaign_id_number"))
    table = sa.Table("games", sa.MetaData(), *columns, *constraints)
    sa.Index("ix_games_campaign_id", table.c.campaign_id)
    sa.Index("uq_games_active_campaign", table.c.campaign_id, unique=True,
             sqlite_where=sa.text("status = 'active'"), postgresql_where=sa.text("status = 'active'"))
    return table


def _rewrite_history(numbering: Mapping[tuple[int, int], int]) -> None:
    """Each figure's history entries that name one of its campaign's battles, renumbered."""
    if context.is_offline_mode():
        return
    figures = sa.table("figures", sa.column("id", sa.Integer()), sa.column("campaign_id", sa.Integer()),
                       sa.column("history", sa.JSON()))
    bind = op.get_bind()
    for figure_id, campaign_id, history in bind.execute(sa.select(figures.c.id, figures.c.campaign_id, figures.c.history)).all():
        if not isinstance(history, list):
            continue
        changed = [_renumbered(entry, campaign_id, numbering) for entry in history]
        if changed != history:
            bind.execute(figures.update().where(figures.c.id == figure_id).values(history=changed))


def _renumbered(entry: Any, campaign_id: int, numbering: Mapping[tuple[int, int], int]) -> Any:
    if not isinstance(entry, dict):
        return entry
    old = entry.get("battle")
    if not isinstance(old, int) or isinstance(old, bool) or (campaign_id, old) not in numbering:
        return entry
    new = numbering[(campaign_id, old)]
    entry = {**entry, "battle": new}
    note = entry.get("note")
    if isinstance(note, str) and note.startswith(f"Battle {old}:"):
        entry["note"] = f"Battle {new}:" + note[len(f"Battle {old}:"):]
    return entry


def _numbering() -> list[tuple[int, int, int]]:
    """(campaign, id, number) of every game."""
    if context.is_offline_mode():
        return []
    return [tuple(row) for row in op.get_bind().execute(sa.text("SELECT campaign_id, id, number FROM games")).all()]


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("number", sa.Integer(), nullable=True))
    op.execute(NUMBER_BY_ID)
    with op.batch_alter_table("games", copy_from=_games(number=True)) as batch:
        batch.alter_column("number", existing_type=sa.Integer(), nullable=False)
        batch.create_unique_constraint(op.f("uq_games_campaign_id_number"), ["campaign_id", "number"])
    _rewrite_history({(campaign, game): number for campaign, game, number in _numbering()})


def downgrade() -> None:
    _rewrite_history({(campaign, number): game for campaign, game, number in _numbering()})
    with op.batch_alter_table("games", copy_from=_games(number=True, unique=True)) as batch:
        batch.drop_constraint(op.f("uq_games_campaign_id_number"), type_="unique")
        batch.drop_column("number")
