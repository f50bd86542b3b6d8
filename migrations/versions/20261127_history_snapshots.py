"""history snapshots: a long series' whole history kept written, served while current

`series.history_version` moves with every change to a series' results: uploads and run
deletions bump it (runs/totals.py), and `recount_totals()` (bulk loads, retention) now
bumps it wherever it changes a series' totals. `history_snapshot` holds, per series and
`max_points`, the points' JSON of its whole history as the live query writes it,
zstd-compressed, and the version it was built from; a read serves it only while the
versions match (series/snapshots.py). Existing databases get no rows: the workers
build them in the background.

Revision ID: 7a3e5c1b9d42
Revises: 6f2b8d4e1a93
Create Date: 2026-11-27 23:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "7a3e5c1b9d42"
down_revision: str | None = "6f2b8d4e1a93"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# As migration 5e2a9c7d1f08 wrote it, with the version bump; series already right are
# not rewritten, and their snapshots stay current.
_RECOUNT_TOTALS = """
CREATE OR REPLACE FUNCTION recount_totals() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b record;
BEGIN
  UPDATE series AS s
     SET result_count = coalesce(t.results, 0),
         first_started_at = t.first_started_at,
         last_started_at = t.last_started_at{bump}
    FROM series AS all_series
    LEFT JOIN (
      SELECT series_id, count(*) AS results, min(started_at) AS first_started_at,
             max(started_at) AS last_started_at
        FROM result GROUP BY series_id
    ) AS t ON t.series_id = all_series.id
   WHERE s.id = all_series.id
     AND (s.result_count, s.first_started_at, s.last_started_at)
         IS DISTINCT FROM (coalesce(t.results, 0), t.first_started_at, t.last_started_at);

  DELETE FROM suite_branch;
  FOR b IN SELECT DISTINCT suite, branch FROM run LOOP
    PERFORM recount_suite_branch(b.suite, b.branch);
  END LOOP;
END
$$
"""


def upgrade() -> None:
    # A constant default: no table rewrite, and the update stays HOT (not indexed).
    op.add_column(
        "series", sa.Column("history_version", sa.BigInteger(), server_default="0", nullable=False)
    )
    op.create_table(
        "history_snapshot",
        sa.Column(
            "series_id",
            sa.BigInteger(),
            sa.ForeignKey("series.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("max_points", sa.Integer(), primary_key=True),
        sa.Column("version", sa.BigInteger(), nullable=False),
        sa.Column("points_zstd", sa.LargeBinary(), nullable=False),
        sa.Column(
            "built_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
    )
    # Already compressed: PostgreSQL's own (pglz) would only spend time failing to shrink it.
    op.execute("ALTER TABLE history_snapshot ALTER COLUMN points_zstd SET STORAGE EXTERNAL")
    op.execute(_RECOUNT_TOTALS.format(bump=",\n         history_version = s.history_version + 1"))


def downgrade() -> None:
    op.execute(_RECOUNT_TOTALS.format(bump=""))
    op.drop_table("history_snapshot")
    op.drop_column("series", "history_version")
