"""result partitioned by month of started_at, in place

The stored results move into one partition per month they ran in (plus a default
partition for rows outside every month; see benchboard/partitions.py, which creates the
coming months whenever the service starts and hourly). Unique keys include the partition
key, as PostgreSQL requires: the primary key is (id, started_at), and one result per
series and run is (run_id, series_id, started_at), the same rule since all results of a
run share its started_at. The indexes are built once, after the rows are in.

Revision ID: 9c4b1e7f2a60
Revises: 5e2a9c7d1f08
Create Date: 2026-11-23 13:00:00
"""

from collections.abc import Sequence

from alembic import op
from sqlalchemy import text

revision: str = "9c4b1e7f2a60"
down_revision: str | None = "5e2a9c7d1f08"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COLUMNS = """(
    id bigint NOT NULL DEFAULT nextval('result_id_seq'),
    run_id uuid NOT NULL,
    series_id bigint NOT NULL,
    started_at timestamptz NOT NULL,
    value double precision NOT NULL,
    unit text NOT NULL,
    value_base double precision NOT NULL,
    stats jsonb,
    samples double precision[]
)"""

_INDEXES = (
    "CREATE INDEX ix_result_series_started_at ON result (series_id, started_at)"
    " INCLUDE (value_base, value, run_id, unit, stats)",
    "CREATE INDEX ix_result_series_started_at_with_samples ON result (series_id, started_at)"
    " WHERE samples IS NOT NULL",
)
_FOREIGN_KEYS = (
    "ALTER TABLE result ADD CONSTRAINT fk_result_run_id_run FOREIGN KEY (run_id)"
    " REFERENCES run (id) ON DELETE CASCADE",
    "ALTER TABLE result ADD CONSTRAINT fk_result_series_id_series FOREIGN KEY (series_id)"
    " REFERENCES series (id)",
)


def _set_aside_result() -> None:
    """Rename the old table out of the way, its keys and indexes gone (the names are
    the new table's), its sequence kept."""
    for constraint in (
        "fk_result_run_id_run",
        "fk_result_series_id_series",
        "uq_result_run_id_series_id",
        "pk_result",
    ):
        op.execute(f"ALTER TABLE result DROP CONSTRAINT {constraint}")
    op.execute("DROP INDEX ix_result_series_started_at")
    op.execute("DROP INDEX ix_result_series_started_at_with_samples")
    op.execute("ALTER SEQUENCE result_id_seq OWNED BY NONE")
    op.execute("ALTER TABLE result RENAME TO result_before")


def _finish_result(primary_key: str, unique: str) -> None:
    op.execute("INSERT INTO result SELECT * FROM result_before")
    op.execute("DROP TABLE result_before")
    op.execute(f"ALTER TABLE result ADD CONSTRAINT pk_result PRIMARY KEY ({primary_key})")
    op.execute(f"ALTER TABLE result ADD CONSTRAINT uq_result_run_id_series_id UNIQUE ({unique})")
    for statement in (*_INDEXES, *_FOREIGN_KEYS):
        op.execute(statement)
    op.execute("ALTER SEQUENCE result_id_seq OWNED BY result.id")
    op.execute("ANALYZE result")


def upgrade() -> None:
    _set_aside_result()
    op.execute(f"CREATE TABLE result {_COLUMNS} PARTITION BY RANGE (started_at)")
    op.execute("CREATE TABLE result_default PARTITION OF result DEFAULT")
    months = op.get_bind().execute(
        text(
            "SELECT DISTINCT (date_trunc('month', started_at, 'UTC') AT TIME ZONE 'UTC')::date"
            " FROM result_before"
            " ORDER BY 1"
        )
    )
    for (month,) in months:
        following = f"{month.year + month.month // 12}-{month.month % 12 + 1:02d}-01"
        op.execute(
            f"CREATE TABLE result_p{month.year:04d}{month.month:02d} PARTITION OF result"
            f" FOR VALUES FROM ('{month.isoformat()} 00:00+00') TO ('{following} 00:00+00')"
        )
    _finish_result("id, started_at", "run_id, series_id, started_at")


def downgrade() -> None:
    _set_aside_result()
    op.execute(f"CREATE TABLE result {_COLUMNS}")
    _finish_result("id", "run_id, series_id")
