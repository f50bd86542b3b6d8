"""Totals the read path needs, kept by every upload inside its transaction.

A series knows how many results it has and when its first and newest ran; a suite's
branch knows its runs, results, series, languages, machines and what its runs' names
share. Counting them on read took 80 ms for a page of 1,000 series and 30-70 ms for
the suite list at 10,000,000 results. A deleted run is taken out (uncount_run);
both move the series' history_version, which retires its history snapshots;
`recount_totals()` (a database function, created by the migration) rebuilds all of them
from the stored rows, after bulk loads and after retention removed data.

SQL text, compiled once: runs/store.py's docstring says why not the dialect's
INSERT … ON CONFLICT.
"""

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import chain

from sqlalchemy import BigInteger, Connection, Text, bindparam, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from benchboard.bulk import driver_connection, int4_array, int8_array
from benchboard.series.groups import moved_group_counts

# Row locks in id order, as the results were written, so two uploads cannot deadlock: an
# UPDATE … WHERE id = ANY(…) alone locks in whatever order its plan visits the rows.
# psycopg directly, parameters in binary built by NumPy (bulk.py): an upload may count
# 100,000 series.
_LOCK_SERIES = "SELECT id FROM series WHERE id = ANY(%b::bigint[]) ORDER BY id FOR NO KEY UPDATE"
# A series' first and last run are positions in the upload's few distinct run times, not
# a timestamp per series: dumping 200,000 datetimes was ~0.1 s of a 100,000-result upload.
_COUNT_SERIES = moved_group_counts(
    "UPDATE series AS s SET result_count = s.result_count + t.results,"
    " first_started_at = least(s.first_started_at, (%(times)b::timestamptz[])[t.first]),"
    " last_started_at = greatest(s.last_started_at, (%(times)b::timestamptz[])[t.last]),"
    " history_version = s.history_version + 1"
    " FROM unnest(%(ids)b::bigint[], %(results)b::int[], %(first)b::int[], %(last)b::int[])"
    " AS t(id, results, first, last) WHERE s.id = t.id",
    was="s.result_count - t.results",
)

# A suite branch's runs of one upload or batch, folded into its totals in one row:
# names_differ as recount_suite_branch() has it (two distinct non-empty names).
_COUNT_RUNS = text(
    "INSERT INTO suite_branch AS sb (suite, branch, run_count, result_count, series_count,"
    " first_started_at, last_started_at, name_prefix, names_differ, languages, hardware)"
    " SELECT :suite, :branch, count(*), :result_count, :new_series, :first_started_at,"
    " :last_started_at, common_prefix(nullif(n, '')), count(DISTINCT nullif(n, '')) > 1,"
    " :languages, :hardware FROM unnest(:names) AS n"
    " ON CONFLICT (suite, branch) DO UPDATE SET run_count = sb.run_count + excluded.run_count,"
    " result_count = sb.result_count + excluded.result_count,"
    " series_count = sb.series_count + excluded.series_count,"
    " first_started_at = least(sb.first_started_at, excluded.first_started_at),"
    " last_started_at = greatest(sb.last_started_at, excluded.last_started_at),"
    " names_differ = sb.names_differ OR excluded.names_differ"
    " OR coalesce(excluded.name_prefix <> sb.name_prefix, false),"
    " name_prefix = text_common_prefix(sb.name_prefix, excluded.name_prefix),"
    " languages = ARRAY(SELECT DISTINCT v FROM unnest(sb.languages || excluded.languages) v"
    " ORDER BY v),"
    " hardware = ARRAY(SELECT DISTINCT v FROM unnest(sb.hardware || excluded.hardware) v"
    " ORDER BY v)"
).bindparams(
    bindparam("names", type_=ARRAY(Text)),
    bindparam("languages", type_=ARRAY(Text)),
    bindparam("hardware", type_=ARRAY(Text)),
)


@dataclass(frozen=True)
class RunTotals:
    """What one new run adds."""

    suite: str
    branch: str
    hardware: str
    name: str | None
    started_at: datetime
    series_ids: list[int]


# (suite, branch) -> the language of each series the upload created there
NewSeries = Mapping[tuple[str, str], list[str]]


def count_runs(session: Session, runs: Sequence[RunTotals], new_series: NewSeries) -> None:
    """Add new runs to the totals of their series and of their suites' branches: one
    statement for the series, one per suite branch, whatever the number of runs.

    Last in the upload: the suite-branch row locks are held only until the commit.
    """
    _count_series(session, runs)
    branches: dict[tuple[str, str], list[RunTotals]] = {}
    for run in runs:
        branches.setdefault((run.suite, run.branch), []).append(run)
    for (suite, branch), of_branch in sorted(branches.items()):  # one lock order
        languages = new_series.get((suite, branch), [])
        session.execute(
            _COUNT_RUNS,
            {
                "suite": suite,
                "branch": branch,
                "result_count": sum(len(run.series_ids) for run in of_branch),
                "new_series": len(languages),
                "first_started_at": min(run.started_at for run in of_branch),
                "last_started_at": max(run.started_at for run in of_branch),
                "names": [run.name for run in of_branch],
                "languages": sorted(set(languages)),
                "hardware": sorted({run.hardware for run in of_branch}),
            },
        )


def _count_series(session: Session, runs: Sequence[RunTotals]) -> None:
    """Each series' new results, first and last run time. Built with dict and Counter
    calls over whole runs, not a Python step per result (~0.1 s for 100,000)."""
    times = sorted({run.started_at for run in runs})
    position = {started_at: index for index, started_at in enumerate(times, start=1)}
    by_time = sorted(runs, key=lambda run: run.started_at)
    first: dict[int, int] = {}
    for run in reversed(by_time):  # the earliest run's position is written last
        first.update(dict.fromkeys(run.series_ids, position[run.started_at]))
    last: dict[int, int] = {}
    for run in by_time:
        last.update(dict.fromkeys(run.series_ids, position[run.started_at]))
    counts = Counter(chain.from_iterable(run.series_ids for run in runs))
    series_ids = sorted(counts)
    lock_series(session, series_ids)
    driver_connection(session).execute(
        _COUNT_SERIES,
        {
            "times": times,
            "ids": int8_array(series_ids),
            "results": int4_array([counts[series_id] for series_id in series_ids]),
            "first": int4_array([first[series_id] for series_id in series_ids]),
            "last": int4_array([last[series_id] for series_id in series_ids]),
        },
    )


def lock_series(session: Session, series_ids: list[int]) -> None:
    """Lock these series' rows (ids sorted) until the transaction ends."""
    driver_connection(session).execute(_LOCK_SERIES, (int8_array(series_ids),))


# After a run's results are gone: one fewer result; the first or last run looked up again
# (one index descent) where it was this run. Both updates move the series' groups' short
# counts where a series crossed a threshold (series/groups.py).
_UNCOUNT_SERIES = text(
    moved_group_counts(
        "UPDATE series AS s SET result_count = s.result_count - 1,"
        " first_started_at = CASE WHEN s.first_started_at = :started_at THEN"
        " (SELECT min(started_at) FROM result WHERE series_id = s.id)"
        " ELSE s.first_started_at END,"
        " last_started_at = CASE WHEN s.last_started_at = :started_at THEN"
        " (SELECT max(started_at) FROM result WHERE series_id = s.id)"
        " ELSE s.last_started_at END,"
        " history_version = s.history_version + 1"
        " WHERE s.id = ANY(:series_ids)",
        was="s.result_count + 1",
    )
).bindparams(bindparam("series_ids", type_=ARRAY(BigInteger)))


def uncount_run(
    session: Session, *, suite: str, branch: str, started_at: datetime, series_ids: set[int]
) -> None:
    """Take a deleted run (its results and emptied series already gone) out of the totals."""
    ordered = sorted(series_ids)
    lock_series(session, ordered)
    session.execute(_UNCOUNT_SERIES, {"started_at": started_at, "series_ids": ordered})
    session.execute(
        text("SELECT recount_suite_branch(:suite, :branch)"), {"suite": suite, "branch": branch}
    )


def recount_totals(connection: Connection | Session) -> None:
    """Rebuild every total from the stored rows (a bulk load, retention)."""
    connection.execute(text("SELECT recount_totals()"))
