"""group access by device: the browser's device token (its hash), not the group's edit key

``score_group_access`` lists which browser (by the hash of its device token, as
``score_access`` does for sessions) started or joined which group. Browsers that still hold a
group's edit key in an old ``group_key_<id>`` cookie get their row the next time they open the
group's page, and the old cookie is deleted.

Revision ID: b7d41e2c9a60
Revises: 5913628d9e4e
Create Date: 2026-12-01 21:20:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = 'b7d41e2c9a60'
down_revision = '5913628d9e4e'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('score_group_access',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('device_hash', sa.String(length=64), nullable=False),
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('granted_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['score_group.id'], name=op.f('fk_score_group_access_group_id_score_group'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_score_group_access')),
    sa.UniqueConstraint('device_hash', 'group_id', name='uq_score_group_access_device_group')
    )
    op.create_index('ix_score_group_access_group_id', 'score_group_access', ['group_id'],
                    unique=False)


def downgrade():
    op.drop_index('ix_score_group_access_group_id', table_name='score_group_access')
    op.drop_table('score_group_access')
