"""The recent histories that detection reads: the pipeline's checks and the triage API's
view of a series (series_state.py) read them through this one module, so both see the
same runs in the same order."""

from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy.orm import Session

from benchboard.bulk import driver_connection
from benchboard.detection.detect import Runs
from benchboard.series.recent import baseline_start, in_base_units, read_curation
from benchboard.stats.noise import run_level

HISTORY_WINDOW = 200
_STREAM_CHUNK = 20  # histories per fetch (chunked mode: libpq >= 17, as psycopg[binary] ships)


@dataclass(frozen=True)
class History:
    """The newest HISTORY_WINDOW results of one series, oldest first, as stored."""

    series_id: int
    higher_is_better: bool
    keys: list[str]  # run ids
    values: list[float]  # value_base
    # By run id, only the few results that carry stats or replicates (the rest need none):
    units: dict[str, str]
    stats: dict[str, dict[str, float]]
    samples: dict[str, list[float]]
    # A maintainer's baseline resets (series_curation): detection starts at the newest.
    resets: tuple[str, ...] = ()
    # Runs whose result a maintainer marked an outlier: left out of keys and values.
    outliers: frozenset[str] = frozenset()


def runs_of(history: History) -> Runs:
    """The detector's view of a history: values as read, and the levels of the few
    results with replicates or stats (in base units)."""
    levels = {}
    units = history.units
    if units:  # one pass over the keys: no map of all 200 positions for the ~20 with a level
        for index, key in enumerate(history.keys):
            if key in units:
                samples, stats = in_base_units(
                    units[key], history.samples.get(key), history.stats.get(key)
                )
                levels[index] = run_level(history.values[index], samples, stats)
    return Runs(history.keys, history.values, levels)


def since_baseline(history: History, expected: Sequence[str]) -> Runs:
    """The runs detection analyses: from the newest change a maintainer marked
    `expected` on, or run a maintainer reset the baseline at, else the whole window."""
    return runs_of(history).since(baseline_start(history.keys, [*expected, *history.resets]))


# Index-only scans of ix_result_series_started_at, newest first; replicates come from
# the partial index of results that have them, over the same span of time. The monthly
# partitions before the series' first run are pruned as the statement runs (no index
# descent into each). Not after its last run too: with both bounds the planner guesses
# a few rows in the range and reads the series' whole history to sort it (Append and
# top-N sort of 2,000 rows, not Merge Append of 201: 2.1 vs 0.8 ms a series at 10M);
# one bound keeps the merge. Units and stats only of the results that have stats:
# building them for every run was a third of the statement's time. Only series on their
# suite's default branch: only it has regressions, so a feature branch's step never
# raises one on the published history.
_HISTORIES = """
SELECT s.id, s.direction, h.keys, h.values_base, h.stats, r.samples
FROM unnest(%(ids)s::bigint[]) AS i(id)
JOIN series AS s ON s.id = i.id
JOIN suite ON suite.name = s.suite AND suite.default_branch = s.branch
CROSS JOIN LATERAL (
    SELECT array_agg(run_id::text ORDER BY started_at DESC, run_id DESC) AS keys,
           array_agg(value_base ORDER BY started_at DESC, run_id DESC) AS values_base,
           (jsonb_object_agg(run_id::text, jsonb_build_array(unit, stats))
               FILTER (WHERE stats IS NOT NULL))::text AS stats,
           min(started_at) AS oldest
    FROM (SELECT run_id, started_at, value_base, unit, stats FROM result
          WHERE series_id = i.id AND started_at >= s.first_started_at
          ORDER BY started_at DESC, run_id DESC LIMIT %(window)s) AS recent
) AS h
LEFT JOIN LATERAL (
    SELECT jsonb_object_agg(run_id::text, jsonb_build_array(unit, samples))::text AS samples
    FROM result
    WHERE series_id = i.id AND samples IS NOT NULL
      AND started_at BETWEEN h.oldest AND s.last_started_at
) AS r ON true
WHERE h.keys IS NOT NULL
"""


def read_histories(session: Session, series_ids: Sequence[int]) -> Generator[History, None, None]:
    """Every series' recent history from one statement, streamed in chunks (binary arrays,
    JSON parsed here): PostgreSQL reads the next histories while the caller checks these.
    Series off their default branch have none. Results a maintainer marked as outliers
    are left out, and baseline resets are attached (series_curation)."""
    curation = read_curation(session, series_ids)
    outliers, resets = curation.outliers, curation.resets
    driver = driver_connection(session)
    params = {"ids": list(series_ids), "window": HISTORY_WINDOW}
    with driver.cursor(binary=True) as cursor:
        for row in cursor.stream(_HISTORIES, params, size=_STREAM_CHUNK):
            series_id, direction, keys, values, with_stats, with_samples = row
            keys.reverse()  # newest first from the index; detection wants oldest first
            values.reverse()
            if series_id in outliers:
                kept = [i for i, key in enumerate(keys) if key not in outliers[series_id]]
                keys, values = [keys[i] for i in kept], [values[i] for i in kept]
            units: dict[str, str] = {}
            stats: dict[str, dict[str, float]] = {}
            samples: dict[str, list[float]] = {}
            for key, (unit, result_stats) in _by_run(with_stats):
                if result_stats:  # JSON null or {}: nothing to add to the value
                    units[key], stats[key] = unit, result_stats
            for key, (unit, result_samples) in _by_run(with_samples):
                units[key], samples[key] = unit, result_samples
            yield History(
                series_id=series_id,
                higher_is_better=direction == "higher",
                keys=keys,
                values=values,
                units=units,
                stats=stats,
                samples=samples,
                resets=tuple(resets.get(series_id, ())),
                outliers=frozenset(outliers.get(series_id, ())),
            )


def _by_run(column: str | None) -> Iterable[tuple[str, tuple[str, Any]]]:
    """A JSON object of [unit, detail] pairs by run id, as read (None: none)."""
    return orjson.loads(column).items() if column else ()
