"""detection queue: a series whose check keeps failing is marked failing, and skipped

`detection_queue.failed_at` is set when a series' check has failed
BENCHBOARD_DETECT_MAX_ATTEMPTS times (or hit an error that retrying cannot fix); workers
skip it until new data (an enqueue clears it) or a maintainer's retry. The partial index
finds the rows claimed before and not finished (their worker died, or their check
failed): they are claimed one at a time, so one series that kills its check cannot take
a batch down with it again.

Revision ID: 8b4f6d2c0e15
Revises: 8b4d2f6a0c13
Create Date: 2026-11-28 09:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "8b4f6d2c0e15"
down_revision: str | None = "8b4d2f6a0c13"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "detection_queue", sa.Column("failed_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.create_index(
        "ix_detection_queue_retried",
        "detection_queue",
        ["queued_at"],
        postgresql_where=sa.text("attempts > 0 AND failed_at IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_detection_queue_retried", table_name="detection_queue")
    op.drop_column("detection_queue", "failed_at")
