"""history snapshot of every point: a window of a long series is a slice of stored bytes

A long series' window (`since`/`until`) was written per request, its count and its points'
JSON in PostgreSQL. A snapshot row of max_points 0 now keeps every point as stored, and
`point_index` each point's start time and JSON length, so a window is two binary searches
and a slice (series/every_point.py). The column is NULL on the other snapshots.

Revision ID: 3b7e9d1f5a20
Revises: 8d2e4b6a1c37
Create Date: 2026-12-07 05:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3b7e9d1f5a20"
down_revision: str | None = "8d2e4b6a1c37"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("history_snapshot", sa.Column("point_index", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    op.execute("DELETE FROM history_snapshot WHERE max_points = 0")
    op.drop_column("history_snapshot", "point_index")
