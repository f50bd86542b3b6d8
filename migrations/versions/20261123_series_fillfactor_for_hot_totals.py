"""series pages keep room for their totals: fillfactor 50, so every upload's update of a
series' result_count, first_started_at and last_started_at is a HOT update

An upload of 100,000 results updates the totals of 100,000 series (runs/totals.py).
None of those columns is indexed, so PostgreSQL can write the new row version on the
same page and skip all five of the table's indexes (a HOT update), but only where the
page has room: at the default fillfactor (100) 4 % of those updates were HOT. At 50 a
page keeps room for a new version of every row on it, and page pruning frees the old
ones on the next upload. New pages get it; rows stored before keep theirs until the
table is rewritten (VACUUM FULL).

Revision ID: 6f2b8d4e1a93
Revises: 9e4a7c3b5d21
Create Date: 2026-11-23 16:45:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "6f2b8d4e1a93"
down_revision: str | None = "9e4a7c3b5d21"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("ALTER TABLE series SET (fillfactor = 50)")


def downgrade() -> None:
    op.execute("ALTER TABLE series RESET (fillfactor)")
