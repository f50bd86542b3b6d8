"""branch-aware series: runs and series carry their git branch; per-suite settings

Each run's branch is `git.branch`, else `main` (every suite's default branch until a
maintainer sets another). A series is one identity on one branch: series whose results
came from runs of several branches are split, one series per branch. The original row
stays with `main` (else with the branch holding most of its results), so regressions and
annotations of the default branch keep their series id; those pinned to a run of another
branch move with that run's results.

Revision ID: 7b9e4c2a1d35
Revises: 3c1d2e4f5a6b
Create Date: 2026-11-23 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "7b9e4c2a1d35"
down_revision: str | None = "3c1d2e4f5a6b"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DEFAULT_BRANCH = "main"  # frozen here: models.DEFAULT_BRANCH may change, history may not

# Columns of `series` copied into the rows split off for other branches.
_SERIES_COPY = (
    "fingerprint",
    "suite",
    "benchmark",
    "params",
    "language",
    "implementation",
    "mode",
    "variant",
    "hardware_id",
    "metric",
    "unit",
    "base_unit",
    "direction",
    "created_at",
)


def _with_default(statement: str) -> sa.TextClause:
    return sa.text(statement).bindparams(default=DEFAULT_BRANCH)


def upgrade() -> None:
    _create_suite_table()
    _add_run_branch()
    op.add_column("series", sa.Column("branch", sa.Text(), nullable=True))
    op.drop_constraint("uq_series_fingerprint", "series", type_="unique")
    _assign_single_branch_suites()
    _split_mixed_series()
    op.execute(_with_default("UPDATE series SET branch = :default WHERE branch IS NULL"))
    op.alter_column("series", "branch", nullable=False)
    op.create_unique_constraint("uq_series_fingerprint_branch", "series", ["fingerprint", "branch"])


def _create_suite_table() -> None:
    op.create_table(
        "suite",
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("default_branch", sa.Text(), server_default=DEFAULT_BRANCH, nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_suite")),
    )
    op.execute("INSERT INTO suite (name) SELECT DISTINCT suite FROM run")
    op.create_foreign_key(op.f("fk_run_suite_suite"), "run", "suite", ["suite"], ["name"])


def _add_run_branch() -> None:
    op.add_column("run", sa.Column("branch", sa.Text(), nullable=True))
    op.execute(_with_default("UPDATE run SET branch = coalesce(git->>'branch', :default)"))
    op.alter_column("run", "branch", nullable=False)
    op.create_index(
        "ix_run_suite_branch_hardware_started_at",
        "run",
        ["suite", "branch", "hardware_id", "started_at"],
    )


def _assign_single_branch_suites() -> None:
    """Most suites ran on one branch only: their series take it without reading results."""
    op.execute(
        """
        UPDATE series SET branch = single.branch
        FROM (SELECT suite, min(branch) AS branch FROM run GROUP BY suite
              HAVING count(DISTINCT branch) = 1) AS single
        WHERE series.suite = single.suite
        """
    )


def _split_mixed_series() -> None:
    """Series of suites with several branches: one series per branch of their results."""
    op.execute(
        """
        CREATE TEMPORARY TABLE series_branch ON COMMIT DROP AS
        SELECT result.series_id, run.branch, count(*) AS results
        FROM result JOIN run ON run.id = result.run_id
        JOIN series ON series.id = result.series_id
        WHERE series.branch IS NULL
        GROUP BY result.series_id, run.branch
        """
    )
    op.execute(
        _with_default(
            """
        CREATE TEMPORARY TABLE series_split ON COMMIT DROP AS
        SELECT series_id AS old_id, branch, keeps,
               CASE WHEN keeps THEN series_id
                    ELSE nextval(pg_get_serial_sequence('series', 'id')) END AS new_id
        FROM (SELECT series_id, branch,
                     row_number() OVER (PARTITION BY series_id ORDER BY
                         branch = :default DESC, results DESC, branch) = 1 AS keeps
              FROM series_branch) AS ranked
        """
        )
    )
    op.execute(
        "UPDATE series SET branch = split.branch FROM series_split AS split"
        " WHERE split.keeps AND series.id = split.old_id"
    )
    op.execute(
        f"INSERT INTO series (id, branch, {', '.join(_SERIES_COPY)})"  # noqa: S608 (constants)
        f" SELECT split.new_id, split.branch, {', '.join(f's.{c}' for c in _SERIES_COPY)}"
        " FROM series_split AS split JOIN series AS s ON s.id = split.old_id"
        " WHERE NOT split.keeps"
    )
    for table in ("result", "regression", "annotation"):
        op.execute(
            f"UPDATE {table} SET series_id = split.new_id"  # noqa: S608 (constants)
            " FROM series_split AS split, run"
            f" WHERE NOT split.keeps AND {table}.series_id = split.old_id"
            f" AND run.id = {table}.run_id AND run.branch = split.branch"
        )


def downgrade() -> None:
    """Merge each identity's branches back into its oldest series, then drop the columns."""
    op.execute(
        """
        CREATE TEMPORARY TABLE series_merge ON COMMIT DROP AS
        SELECT id AS old_id, min(id) OVER (PARTITION BY fingerprint) AS new_id FROM series
        """
    )
    op.execute("DELETE FROM series_merge WHERE old_id = new_id")
    for table in ("result", "regression", "annotation"):
        op.execute(
            f"UPDATE {table} SET series_id = merge.new_id"  # noqa: S608 (constants)
            " FROM series_merge AS merge"
            f" WHERE {table}.series_id = merge.old_id"
        )
    op.execute("DELETE FROM series USING series_merge AS merge WHERE series.id = merge.old_id")
    op.drop_constraint("uq_series_fingerprint_branch", "series", type_="unique")
    op.create_unique_constraint("uq_series_fingerprint", "series", ["fingerprint"])
    op.drop_column("series", "branch")
    op.drop_index("ix_run_suite_branch_hardware_started_at", table_name="run")
    op.drop_column("run", "branch")
    op.drop_constraint(op.f("fk_run_suite_suite"), "run", type_="foreignkey")
    op.drop_table("suite")
