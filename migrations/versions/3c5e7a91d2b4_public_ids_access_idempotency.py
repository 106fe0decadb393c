"""public session ids, session versions, browser access rows, idempotent game writes

A session gets a random ``public_id`` (used in every URL and as the API's id) while the integer
key stays internal; each change of the history can keep the idempotency key of the request that
made it and the answer given; ``score_access`` lists which browser (by the hash of its device
token) created or joined which session; ``version`` counts a session's changes.

Revision ID: 3c5e7a91d2b4
Revises: 709a20fbb904
Create Date: 2026-11-23 13:10:00.000000

"""
import secrets

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '3c5e7a91d2b4'
down_revision = '709a20fbb904'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('score_session') as batch_op:
        batch_op.add_column(sa.Column('public_id', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('version', sa.Integer(), server_default='1',
                                      nullable=False))
    sessions = sa.table('score_session', sa.column('id', sa.Integer),
                        sa.column('public_id', sa.String))
    connection = op.get_bind()
    for (session_id,) in connection.execute(sa.select(sessions.c.id)).all():
        connection.execute(sessions.update().where(sessions.c.id == session_id)
                           .values(public_id=secrets.token_urlsafe(12)))
    with op.batch_alter_table('score_session') as batch_op:
        batch_op.alter_column('public_id', existing_type=sa.String(length=32), nullable=False)
        batch_op.create_unique_constraint(op.f('uq_score_session_public_id'), ['public_id'])

    with op.batch_alter_table('score_game_change') as batch_op:
        batch_op.add_column(sa.Column('idempotency_key', sa.String(length=100), nullable=True))
        batch_op.add_column(sa.Column('request_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('answer', sa.JSON(), nullable=True))
        batch_op.create_unique_constraint('uq_score_game_change_idempotency_key',
                                          ['session_id', 'idempotency_key'])

    op.create_table('score_access',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_hash', sa.String(length=64), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('granted_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['score_session.id'], name=op.f('fk_score_access_session_id_score_session'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_score_access')),
    sa.UniqueConstraint('device_hash', 'session_id', name='uq_score_access_device_session')
    )
    op.create_index('ix_score_access_session_id', 'score_access', ['session_id'], unique=False)


def downgrade():
    op.drop_index('ix_score_access_session_id', table_name='score_access')
    op.drop_table('score_access')
    with op.batch_alter_table('score_game_change') as batch_op:
        batch_op.drop_constraint('uq_score_game_change_idempotency_key', type_='unique')
        batch_op.drop_column('answer')
        batch_op.drop_column('request_hash')
        batch_op.drop_column('idempotency_key')
    with op.batch_alter_table('score_session') as batch_op:
        batch_op.drop_constraint(op.f('uq_score_session_public_id'), type_='unique')
        batch_op.drop_column('version')
        batch_op.drop_column('public_id')
