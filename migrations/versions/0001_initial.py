"""initial schema: campaigns, members, figures, games, actions, events, rolls, decisions

Revision ID: 0001
Revises:
Create Date: 2026-11-22

Runs on SQLite and PostgreSQL alike. The two partial unique indexes (one active campaign per
channel, one active game per campaign) carry their WHERE clause for both dialects.
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'campaigns',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('guild_id', sa.BigInteger(), nullable=False),
        sa.Column('channel_id', sa.BigInteger(), nullable=False),
        sa.Column('name', sa.String(length=100), nullable=False),
        sa.Column('ruleset', sa.String(length=20), nullable=False),
        sa.Column('gm_id', sa.BigInteger(), nullable=False),
        sa.Column('active', sa.Boolean(), nullable=False),
        sa.Column('house_rules', sa.JSON(none_as_null=True), nullable=True),
        sa.Column('settings', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_campaigns'))
    )
    op.create_index(op.f('ix_campaigns_guild_id'), 'campaigns', ['guild_id'], unique=False)
    op.create_index(op.f('uq_campaigns_active_channel'), 'campaigns', ['channel_id'], unique=True, sqlite_where=sa.text('active'), postgresql_where=sa.text('active'))
    op.create_table(
        'figures',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('campaign_id', sa.Integer(), nullable=False),
        sa.Column('owner_id', sa.BigInteger(), nullable=False),
        sa.Column('name', sa.String(length=64), nullable=False),
        sa.Column('side', sa.String(length=32), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('stats', sa.JSON(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('history', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], name=op.f('fk_figures_campaign_id_campaigns'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_figures')),
        sa.UniqueConstraint('campaign_id', 'name', name=op.f('uq_figures_campaign_id_name'))
    )
    op.create_table(
        'games',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('campaign_id', sa.Integer(), nullable=False),
        sa.Column('ruleset', sa.String(length=20), nullable=False),
        sa.Column('status', sa.String(length=10), nullable=False),
        sa.Column('state', sa.JSON(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('winner', sa.String(length=32), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('active', 'ended')", name=op.f('ck_games_status')),
        sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], name=op.f('fk_games_campaign_id_campaigns'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_games'))
    )
    op.create_index(op.f('ix_games_campaign_id'), 'games', ['campaign_id'], unique=False)
    op.create_index(op.f('uq_games_active_campaign'), 'games', ['campaign_id'], unique=True, sqlite_where=sa.text("status = 'active'"), postgresql_where=sa.text("status = 'active'"))
    op.create_table(
        'members',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('campaign_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.BigInteger(), nullable=False),
        sa.Column('display_name', sa.String(length=100), nullable=False),
        sa.Column('role', sa.String(length=10), nullable=False),
        sa.Column('side', sa.String(length=32), nullable=True),
        sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("role IN ('gm', 'player', 'pending')", name=op.f('ck_members_role')),
        sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], name=op.f('fk_members_campaign_id_campaigns'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_members')),
        sa.UniqueConstraint('campaign_id', 'user_id', name=op.f('uq_members_campaign_id_user_id'))
    )
    op.create_table(
        'actions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('interaction_id', sa.BigInteger(), nullable=True),
        sa.Column('user_id', sa.BigInteger(), nullable=False),
        sa.Column('side', sa.String(length=32), nullable=True),
        sa.Column('by_gm', sa.Boolean(), nullable=False),
        sa.Column('command', sa.Text(), nullable=False),
        sa.Column('state_before', sa.JSON(none_as_null=True), nullable=True),
        sa.Column('undone', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_actions_game_id_games'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_actions')),
        sa.UniqueConstraint('game_id', 'seq', name=op.f('uq_actions_game_id_seq')),
        sa.UniqueConstraint('interaction_id', name=op.f('uq_actions_interaction_id'))
    )
    op.create_table(
        'decisions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('campaign_id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=True),
        sa.Column('decider', sa.String(length=32), nullable=False),
        sa.Column('user_id', sa.BigInteger(), nullable=True),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('prompt', sa.Text(), nullable=False),
        sa.Column('choices', sa.JSON(), nullable=False),
        sa.Column('resume', sa.JSON(), nullable=False),
        sa.Column('status', sa.String(length=10), nullable=False),
        sa.Column('answer', sa.String(length=100), nullable=True),
        sa.Column('channel_id', sa.BigInteger(), nullable=True),
        sa.Column('message_id', sa.BigInteger(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('answered_at', sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('open', 'answered', 'cancelled')", name=op.f('ck_decisions_status')),
        sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id'], name=op.f('fk_decisions_campaign_id_campaigns'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_decisions_game_id_games'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_decisions'))
    )
    op.create_index(op.f('ix_decisions_campaign_id'), 'decisions', ['campaign_id'], unique=False)
    op.create_index(op.f('ix_decisions_status_game_id'), 'decisions', ['status', 'game_id'], unique=False)
    op.create_table(
        'events',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('action_id', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('data', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['action_id'], ['actions.id'], name=op.f('fk_events_action_id_actions'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_events')),
        sa.UniqueConstraint('action_id', 'seq', name=op.f('uq_events_action_id_seq'))
    )
    op.create_table(
        'rolls',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('action_id', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=8), nullable=False),
        sa.Column('sides', sa.Integer(), nullable=True),
        sa.Column('value', sa.String(length=8), nullable=False),
        sa.Column('reason', sa.Text(), nullable=False),
        sa.Column('secret', sa.Boolean(), nullable=False),
        sa.CheckConstraint("kind IN ('die', 'card')", name=op.f('ck_rolls_kind')),
        sa.ForeignKeyConstraint(['action_id'], ['actions.id'], name=op.f('fk_rolls_action_id_actions'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_rolls')),
        sa.UniqueConstraint('action_id', 'seq', name=op.f('uq_rolls_action_id_seq'))
    )


def downgrade() -> None:
    op.drop_table('rolls')
    op.drop_table('events')
    op.drop_index(op.f('ix_decisions_status_game_id'), table_name='decisions')
    op.drop_index(op.f('ix_decisions_campaign_id'), table_name='decisions')
    op.drop_table('decisions')
    op.drop_table('actions')
    op.drop_table('members')
    op.drop_index(op.f('uq_games_active_campaign'), table_name='games')
    op.drop_index(op.f('ix_games_campaign_id'), table_name='games')
    op.drop_table('games')
    op.drop_table('figures')
    op.drop_index(op.f('uq_campaigns_active_channel'), table_name='campaigns')
    op.drop_index(op.f('ix_campaigns_guild_id'), table_name='campaigns')
    op.drop_table('campaigns')
