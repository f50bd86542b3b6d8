"""read totals kept at write time: per series (results, first and last run), per suite branch

At 10,000,000 results the series list counted every result of every listed series
(2,000 index entries each) and the suite list aggregated every run; uploads now keep
these totals, and `recount_totals()` rebuilds them from `result` and `run` (after a bulk
load, or after retention removed data). The function and the `common_prefix` aggregate
(a suite's title is what its runs' names share) live in the database, so the migration,
the service and the benchmarks compute them one way.

Revision ID: 5e2a9c7d1f08
Revises: 5a1c7e3b9d20
Create Date: 2026-11-23 12:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "5e2a9c7d1f08"
down_revision: str | None = "5a1c7e3b9d20"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TEXT_COMMON_PREFIX = """
CREATE FUNCTION text_common_prefix(a text, b text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN a IS NULL THEN b
    WHEN b IS NULL THEN a
    ELSE left(a, coalesce(
      (SELECT min(i) - 1 FROM generate_series(1, least(length(a), length(b))) AS i
        WHERE substr(a, i, 1) <> substr(b, i, 1)),
      least(length(a), length(b))))
  END
$$
"""

_COMMON_PREFIX = "CREATE AGGREGATE common_prefix(text) (SFUNC = text_common_prefix, STYPE = text)"

# One suite branch's totals from its stored runs and series (after a run is deleted).
_RECOUNT_SUITE_BRANCH = """
CREATE FUNCTION recount_suite_branch(p_suite text, p_branch text) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM suite_branch WHERE suite = p_suite AND branch = p_branch;

  INSERT INTO suite_branch (suite, branch, run_count, result_count, first_started_at,
                            last_started_at, name_prefix, names_differ)
  SELECT p_suite, p_branch, count(*), sum(result_count), min(started_at), max(started_at),
         common_prefix(nullif(name, '')), count(DISTINCT nullif(name, '')) > 1
    FROM run WHERE suite = p_suite AND branch = p_branch
  HAVING count(*) > 0;

  UPDATE suite_branch AS sb
     SET series_count = t.series_count, languages = t.languages, hardware = t.hardware
    FROM (
      SELECT count(*) AS series_count,
             array_agg(DISTINCT s.language ORDER BY s.language) AS languages,
             array_agg(DISTINCT h.name ORDER BY h.name) AS hardware
        FROM series AS s JOIN hardware AS h ON h.id = s.hardware_id
       WHERE s.suite = p_suite AND s.branch = p_branch
      HAVING count(*) > 0
    ) AS t
   WHERE sb.suite = p_suite AND sb.branch = p_branch;
$$
"""

# Everything from the stored rows; series already right are not rewritten.
_RECOUNT_TOTALS = """
CREATE FUNCTION recount_totals() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b record;
BEGIN
  UPDATE series AS s
     SET result_count = coalesce(t.results, 0),
         first_started_at = t.first_started_at,
         last_started_at = t.last_started_at
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
    op.add_column(
        "series", sa.Column("result_count", sa.Integer(), server_default="0", nullable=False)
    )
    op.add_column("series", sa.Column("first_started_at", sa.DateTime(timezone=True)))
    op.add_column("series", sa.Column("last_started_at", sa.DateTime(timezone=True)))
    op.create_table(
        "suite_branch",
        sa.Column("suite", sa.Text(), nullable=False),
        sa.Column("branch", sa.Text(), nullable=False),
        sa.Column("run_count", sa.Integer(), nullable=False),
        sa.Column("result_count", sa.BigInteger(), nullable=False),
        sa.Column("series_count", sa.Integer(), server_default="0", nullable=False),
        sa.Column("first_started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("name_prefix", sa.Text(), nullable=True),
        sa.Column("names_differ", sa.Boolean(), server_default="false", nullable=False),
        sa.Column("languages", postgresql.ARRAY(sa.Text()), server_default="{}", nullable=False),
        sa.Column("hardware", postgresql.ARRAY(sa.Text()), server_default="{}", nullable=False),
        sa.ForeignKeyConstraint(
            ["suite"],
            ["suite.name"],
            name=op.f("fk_suite_branch_suite_suite"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("suite", "branch", name=op.f("pk_suite_branch")),
    )
    op.execute(_TEXT_COMMON_PREFIX)
    op.execute(_COMMON_PREFIX)
    op.execute(_RECOUNT_SUITE_BRANCH)
    op.execute(_RECOUNT_TOTALS)
    op.execute("SELECT recount_totals()")


def downgrade() -> None:
    op.execute("DROP FUNCTION recount_totals()")
    op.execute("DROP FUNCTION recount_suite_branch(text, text)")
    op.execute("DROP AGGREGATE common_prefix(text)")
    op.execute("DROP FUNCTION text_common_prefix(text, text)")
    op.drop_table("suite_branch")
    op.drop_column("series", "last_started_at")
    op.drop_column("series", "first_started_at")
    op.drop_column("series", "result_count")
