"""series groups: series counted per identity apart from params, kept at write time

At 300,000 series, facets counted every series row (842 ms) and compare/modes read every
series of a language to find it had no pair (9.6 s). A parameter sweep makes most series
(1,000 benchmarks x 100 parameter sets is 100,000 series), so `series_group` counts series
per (suite, branch, benchmark, language, implementation, mode, variant, machine, metric):
a hundredth of the rows, and every filter dimension is a column. Statement triggers keep
`series_count` through every path that inserts or deletes series (uploads, run deletion,
bulk loads), and `first_series_id`, where a walk of the series' primary key for the group
may start (a lower bound: deletions leave it); uploads and deletions move `few_runs_count`
and `short_count` as series grow past 3 and 16 results (runs/totals.py), and
`recount_totals()` rebuilds the table.

`ix_series_pairing` finds a series' other-mode partners by the pairing key and its params
(with the same keys, equal params; with other keys, `params_compatible`, compare/pairing.py's
rule), see compare/modes.py.

Revision ID: 8b4d2f6a0c13
Revises: 7a3e5c1b9d42
Create Date: 2026-11-28 09:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "8b4d2f6a0c13"
down_revision: str | None = "7a3e5c1b9d42"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEY = "suite, branch, benchmark, language, implementation, mode, variant, hardware_id, metric"
# FEW_RUNS and SHORT_RUNS of series/groups.py (a test compares them).
_KEPT = "first_series_id, series_count, few_runs_count, short_count"
_COUNTS = (
    "min(id) AS first_series_id, count(*) AS series_count, count(*) FILTER (WHERE result_count < 3) AS few_runs_count,"
    " count(*) FILTER (WHERE result_count < 16) AS short_count"
)

_ADD = f"""
CREATE FUNCTION series_group_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO series_group AS g ({_KEY}, {_KEPT})
  SELECT {_KEY}, {_COUNTS} FROM new_series GROUP BY {_KEY} ORDER BY {_KEY}
  ON CONFLICT ON CONSTRAINT uq_series_group_key DO UPDATE
     SET first_series_id = least(g.first_series_id, excluded.first_series_id),
         series_count = g.series_count + excluded.series_count,
         few_runs_count = g.few_runs_count + excluded.few_runs_count,
         short_count = g.short_count + excluded.short_count;
  RETURN NULL;
END
$$
"""  # noqa: S608  (column names of this file)

_JOIN = " AND ".join(
    [
        f"g.{c} = d.{c}"
        for c in ("suite", "branch", "benchmark", "language", "hardware_id", "metric")
    ]
    + [f"g.{c} IS NOT DISTINCT FROM d.{c}" for c in ("implementation", "mode", "variant")]
)

_REMOVE = f"""
CREATE FUNCTION series_group_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE series_group AS g
     SET series_count = g.series_count - d.series_count,
         few_runs_count = g.few_runs_count - d.few_runs_count,
         short_count = g.short_count - d.short_count
    FROM (SELECT {_KEY}, {_COUNTS} FROM old_series GROUP BY {_KEY}) AS d
   WHERE {_JOIN};
  DELETE FROM series_group WHERE series_count = 0;
  RETURN NULL;
END
$$
"""  # noqa: S608

# compare/pairing.params_compatible: the params agree on every key both have. One SQL
# expression, so the planner inlines it.
_PARAMS_COMPATIBLE = """
CREATE FUNCTION params_compatible(a jsonb, b jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT a = b OR NOT EXISTS (SELECT 1 FROM jsonb_each(a) AS e WHERE b ? e.key AND b -> e.key <> e.value)
$$
"""

# Which keys the params have, hashed: a partner with the same keys must have equal params
# (one index descent, jsonb_hash_extended), one with other keys is compatible or not by
# params_compatible (a range of the index that is empty unless some series has them). One
# expression (jsonb keeps an object's keys in one order), so it is inlined: 1 us a row, a
# subquery over jsonb_object_keys() took 4.
_PARAM_KEYS_HASH = """
CREATE FUNCTION param_keys_hash(params jsonb) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT jsonb_hash_extended(jsonb_path_query_array(params, 'strict $.keyvalue().key'), 0)
$$
"""

_REBUILD = f"""
  DELETE FROM series_group;
  INSERT INTO series_group ({_KEY}, {_KEPT})
  SELECT {_KEY}, {_COUNTS} FROM series GROUP BY {_KEY} ORDER BY {_KEY};
"""  # noqa: S608

# As migration 7a3e5c1b9d42 wrote it, then the series groups rebuilt.
_RECOUNT_TOTALS = """
CREATE OR REPLACE FUNCTION recount_totals() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b record;
BEGIN
  UPDATE series AS s
     SET result_count = coalesce(t.results, 0),
         first_started_at = t.first_started_at,
         last_started_at = t.last_started_at,
         history_version = s.history_version + 1
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
{rebuild}END
$$
"""


def upgrade() -> None:
    op.create_table(
        "series_group",
        sa.Column("id", sa.BigInteger(), sa.Identity(), primary_key=True),
        sa.Column("suite", sa.Text(), nullable=False),
        sa.Column("branch", sa.Text(), nullable=False),
        sa.Column("benchmark", sa.Text(), nullable=False),
        sa.Column("language", sa.Text(), nullable=False),
        sa.Column("implementation", sa.Text(), nullable=True),
        sa.Column("mode", sa.Text(), nullable=True),
        sa.Column("variant", sa.Text(), nullable=True),
        sa.Column("hardware_id", sa.Integer(), nullable=False),
        sa.Column("metric", sa.Text(), nullable=False),
        sa.Column("first_series_id", sa.BigInteger(), nullable=False),
        sa.Column("series_count", sa.Integer(), nullable=False),
        sa.Column("few_runs_count", sa.Integer(), nullable=False),
        sa.Column("short_count", sa.Integer(), nullable=False),
        sa.UniqueConstraint(
            *_KEY.split(", "), name="uq_series_group_key", postgresql_nulls_not_distinct=True
        ),
    )
    op.execute(_ADD)
    op.execute(_REMOVE)
    op.execute(
        "CREATE TRIGGER series_group_insert AFTER INSERT ON series"
        " REFERENCING NEW TABLE AS new_series FOR EACH STATEMENT"
        " EXECUTE FUNCTION series_group_add()"
    )
    op.execute(
        "CREATE TRIGGER series_group_delete AFTER DELETE ON series"
        " REFERENCING OLD TABLE AS old_series FOR EACH STATEMENT"
        " EXECUTE FUNCTION series_group_remove()"
    )
    op.execute(_RECOUNT_TOTALS.format(rebuild=_REBUILD))
    op.execute(_PARAMS_COMPATIBLE)
    op.execute(_REBUILD.replace("\n  ", "\n"))
    op.execute(_PARAM_KEYS_HASH)
    op.create_index(
        "ix_series_pairing",
        "series",
        [
            "benchmark",
            "language",
            "suite",
            "branch",
            "hardware_id",
            "metric",
            "mode",
            sa.text("param_keys_hash(params)"),
            sa.text("jsonb_hash_extended(params, 0)"),
        ],
    )


def downgrade() -> None:
    op.drop_index("ix_series_pairing", table_name="series")
    op.execute("DROP FUNCTION param_keys_hash(jsonb)")
    op.execute("DROP FUNCTION params_compatible(jsonb, jsonb)")
    op.execute(_RECOUNT_TOTALS.format(rebuild=""))
    op.execute("DROP TRIGGER series_group_delete ON series")
    op.execute("DROP TRIGGER series_group_insert ON series")
    op.execute("DROP FUNCTION series_group_remove()")
    op.execute("DROP FUNCTION series_group_add()")
    op.drop_table("series_group")
