"""stale_totals: what a removal left to recount, so a crashed retention is recounted next time

Retention writes its row in the transaction of each partition DROP and each batch of
deleted runs, and deletes it in the transaction of its recount (`recount_totals()`). A row
still there when retention starts was left by a run that crashed between the two: it
recounts first.

Revision ID: f1dd76c6bda8
Revises: 8b4f6d2c0e15
Create Date: 2026-11-28 11:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "f1dd76c6bda8"
down_revision: str | None = "8b4f6d2c0e15"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "stale_totals",
        sa.Column("cause", sa.Text(), primary_key=True),
        sa.Column(
            "since", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
    )


def downgrade() -> None:
    op.drop_table("stale_totals")
