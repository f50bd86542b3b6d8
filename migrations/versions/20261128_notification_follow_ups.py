"""notification follow-ups: a message per group and target names the changes it told of

A group's first message is composed when sent, after a settle window; changes that join
the group after it (another machine's upload of the commit) go in a follow-up naming only
them. `notification_delivery.announced` keeps the changes each sent message named, so no
change is told twice; one message per target and group may be pending at a time (a
partial unique index, not the old unique pair), and it takes every newcomer when sent.

Revision ID: 8d2e4b6a1c37
Revises: 6c8a2f4e9b17
Create Date: 2026-11-28 15:05:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import ARRAY

revision: str = "8d2e4b6a1c37"
down_revision: str | None = "6c8a2f4e9b17"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_PENDING = "delivered_at IS NULL AND gave_up_at IS NULL"


def upgrade() -> None:
    op.add_column(
        "notification_delivery", sa.Column("announced", ARRAY(sa.BigInteger()), nullable=True)
    )
    op.drop_constraint(
        "uq_notification_delivery_target_id", "notification_delivery", type_="unique"
    )
    op.create_index(
        "uq_notification_delivery_pending",
        "notification_delivery",
        ["target_id", "group_id"],
        unique=True,
        postgresql_where=sa.text(_PENDING),
    )


def downgrade() -> None:
    op.drop_index("uq_notification_delivery_pending", table_name="notification_delivery")
    # The first message per target and group stays: the old rule allowed only one.
    op.execute(
        "DELETE FROM notification_delivery AS later USING notification_delivery AS first"
        " WHERE later.target_id = first.target_id AND later.group_id = first.group_id"
        " AND later.id > first.id"
    )
    op.create_unique_constraint(
        "uq_notification_delivery_target_id", "notification_delivery", ["target_id", "group_id"]
    )
    op.drop_column("notification_delivery", "announced")
