"""Totals the read path needs, kept by every upload inside its transaction.

A series knows how many results it has and when its first and newest ran; a suite's
branch knows its runs, results, series, languages, machines and what its runs' names
share. Counting them on read took 80 ms for a page of 1,000 series and 30-70 ms for
the suite list at 10,000,000 results. A deleted run is taken out (uncount_run);
`recount_totals()` (a database function, created by the migration) rebuilds all of them
from the stored rows, after bulk loads and after retention removed data.

SQL text: compiled once (see runs.service on why not the dialect's INSERT … ON CONFLICT).
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import BigInteger, Connection, Text, bindparam, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

# Row locks in id order, as the results were written, so two uploads cannot deadlock: an
# UPDATE … WHERE id = ANY(…) alone locks in whatever order its plan visits the rows.
_LOCK_SERIES = text(
    "SELECT id FROM series WHERE id = ANY(:series_ids) ORDER BY id FOR NO KEY UPDATE"
).bindparams(bindparam("series_ids", type_=ARRAY(BigInteger)))
_COUNT_SERIES = text(
    "UPDATE series SET result_count = result_count + 1,"
    " first_started_at = least(first_started_at, :started_at),"
    " last_started_at = greatest(last_started_at, :started_at)"
    " WHERE id = ANY(:series_ids)"
).bindparams(bindparam("series_ids", type_=ARRAY(BigInteger)))


_COUNT_RUN = text(
    "INSERT INTO suite_branch AS sb (suite, branch, run_count, result_count, series_count,"
    " first_started_at, last_started_at, name_prefix, names_differ, languages, hardware)"
    " VALUES (:suite, :branch, 1, :result_count, :new_series, :started_at, :started_at,"
    " nullif(:name, ''), false, :languages, ARRAY[:hardware])"
    " ON CONFLICT (suite, branch) DO UPDATE SET run_count = sb.run_count + 1,"
    " result_count = sb.result_count + excluded.result_count,"
    " series_count = sb.series_count + excluded.series_count,"
    " first_started_at = least(sb.first_started_at, excluded.first_started_at),"
    " last_started_at = greatest(sb.last_started_at, excluded.last_started_at),"
    " names_differ = sb.names_differ"
    " OR coalesce(excluded.name_prefix <> sb.name_prefix, false),"
    " name_prefix = text_common_prefix(sb.name_prefix, excluded.name_prefix),"
    " languages = ARRAY(SELECT DISTINCT v FROM unnest(sb.languages || excluded.languages) v"
    " ORDER BY v),"
    " hardware = ARRAY(SELECT DISTINCT v FROM unnest(sb.hardware || excluded.hardware) v"
    " ORDER BY v)"
).bindparams(bindparam("languages", type_=ARRAY(Text)))


@dataclass(frozen=True)
class RunTotals:
    """What one new run adds."""

    suite: str
    branch: str
    hardware: str
    name: str | None
    started_at: datetime
    series_ids: list[int]
    new_series_languages: list[str]  # one entry per series this run created


def count_run(session: Session, run: RunTotals) -> None:
    """Add a new run to the totals of its series and of its suite's branch.

    Last in the upload: the suite-branch row lock is held only until the commit.
    """
    series_ids = sorted(run.series_ids)
    session.execute(_LOCK_SERIES, {"series_ids": series_ids})
    session.execute(_COUNT_SERIES, {"started_at": run.started_at, "series_ids": series_ids})
    session.execute(
        _COUNT_RUN,
        {
            "suite": run.suite,
            "branch": run.branch,
            "result_count": len(run.series_ids),
            "new_series": len(run.new_series_languages),
            "started_at": run.started_at,
            "name": run.name,
            "languages": sorted(set(run.new_series_languages)),
            "hardware": run.hardware,
        },
    )


# After a run's results are gone: one fewer result; the first or last run looked up again
# (one index descent) where it was this run.
_UNCOUNT_SERIES = text(
    "UPDATE series SET result_count = result_count - 1,"
    " first_started_at = CASE WHEN first_started_at = :started_at THEN"
    " (SELECT min(started_at) FROM result WHERE series_id = series.id)"
    " ELSE first_started_at END,"
    " last_started_at = CASE WHEN last_started_at = :started_at THEN"
    " (SELECT max(started_at) FROM result WHERE series_id = series.id)"
    " ELSE last_started_at END"
    " WHERE id = ANY(:series_ids)"
).bindparams(bindparam("series_ids", type_=ARRAY(BigInteger)))


def uncount_run(
    session: Session, *, suite: str, branch: str, started_at: datetime, series_ids: set[int]
) -> None:
    """Take a deleted run (its results and emptied series already gone) out of the totals."""
    ordered = sorted(series_ids)
    session.execute(_LOCK_SERIES, {"series_ids": ordered})
    session.execute(_UNCOUNT_SERIES, {"started_at": started_at, "series_ids": ordered})
    session.execute(
        text("SELECT recount_suite_branch(:suite, :branch)"), {"suite": suite, "branch": branch}
    )


def recount_totals(connection: Connection | Session) -> None:
    """Rebuild every total from the stored rows (a bulk load, retention)."""
    connection.execute(text("SELECT recount_totals()"))
