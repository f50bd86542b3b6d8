"""Series groups (models.SeriesGroup): series counted per identity apart from params.

A parameter sweep makes most series of a wide suite (1,000 benchmarks x 100 parameter
sets), and reads that counted or scanned every series (facets, which sync/async pairs can
exist, how many series are too short for a change) read a hundredth of the rows here. A
statement trigger on `series` (migration 8b4d2f6a0c13) counts series in and out on every
path that inserts or deletes them; the result counts move on uploads and run deletions,
so those move the groups' short-series counts (moved_group_counts) in the same statement.
"""

from benchboard.detection.thresholds import REPLICATE_SIDES, SHORT_SEGMENT

# Fewer results than this and no change can show: the fewest runs a change needs
# (detection.state.runs_for_a_change with replicates). The trigger and recount_totals()
# carry these two numbers too; a test compares them.
FEW_RUNS = sum(REPLICATE_SIDES)
# From this many results on, a series without a stored change is always judged
# (history_support reads only the others).
SHORT_RUNS = SHORT_SEGMENT

KEY = (
    "suite",
    "branch",
    "benchmark",
    "language",
    "implementation",
    "mode",
    "variant",
    "hardware_id",
    "metric",
)
_NULLABLE = {"implementation", "mode", "variant"}
_MATCH = " AND ".join(
    f"g.{c} IS NOT DISTINCT FROM c.{c}" if c in _NULLABLE else f"g.{c} = c.{c}" for c in KEY
)


def moved_group_counts(update: str, *, was: str) -> str:
    """`update` (an UPDATE of `series AS s` without RETURNING) as a CTE, then the groups'
    few-run and short counts moved for the series it took across FEW_RUNS or SHORT_RUNS
    results; `was` is the SQL of a series' result count before the update."""
    returning = ", ".join(f"s.{c}" for c in KEY)
    key = ", ".join(KEY)
    sql = f"WITH counted AS ({update} RETURNING {returning}, {was} AS was, s.result_count AS now)"
    return sql + (  # noqa: S608  (column names and constants of this module)
        " UPDATE series_group AS g SET few_runs_count = g.few_runs_count + c.few,"  # noqa: S608
        " short_count = g.short_count + c.short"
        f" FROM (SELECT {key},"
        f" count(*) FILTER (WHERE now < {FEW_RUNS}) - count(*) FILTER (WHERE was < {FEW_RUNS})"
        " AS few,"
        f" count(*) FILTER (WHERE now < {SHORT_RUNS})"
        f" - count(*) FILTER (WHERE was < {SHORT_RUNS}) AS short"
        # Only the series that crossed a threshold move a count: an upload of 100,000 new
        # series (0 -> 1 result, counted short by the insert trigger) groups none of them.
        f" FROM counted WHERE (was < {FEW_RUNS}) <> (now < {FEW_RUNS})"
        f" OR (was < {SHORT_RUNS}) <> (now < {SHORT_RUNS}) GROUP BY {key}) AS c"
        f" WHERE {_MATCH} AND (c.few <> 0 OR c.short <> 0)"
    )
