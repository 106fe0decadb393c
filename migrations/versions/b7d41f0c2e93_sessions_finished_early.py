"""sessions: finished_at, when the table ended a session before its last planned game

Revision ID: b7d41f0c2e93
Revises: b7d41e2c9a60
Create Date: 2026-12-01 21:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7d41f0c2e93'
down_revision = 'b7d41e2c9a60'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('score_session', schema=None) as batch_op:
        batch_op.add_column(sa.Column('finished_at', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('score_session', schema=None) as batch_op:
        batch_op.drop_column('finished_at')
