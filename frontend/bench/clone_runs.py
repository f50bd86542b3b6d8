"""Clones one stored run N times, an hour apart, with a slowly drifting noisy value.

    <repo>/.venv/bin/python frontend/bench/clone_runs.py DATA_DIR RUN_ID COUNT

For the front-end speed bench only: 100,000 uploads through the API take about half an hour
here, so it writes straight into the embedded database of DATA_DIR, but through the store's
own pieces, as an upload would leave them: the result partitions of the months the clones
span, the `run` and `result` rows in the store's COPY layouts (RUN_COPY, RESULT_COPY), the
totals and history versions (recount_totals) and a detection check of the run's series (the
queue). The service must already run on DATA_DIR.
"""

import math
import random
import sys
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from benchboard.bulk import driver_connection
from benchboard.config import Settings
from benchboard.database_server import resolve_database_url
from benchboard.db import make_engine
from benchboard.models import Result, Run
from benchboard.partitions import create_months, months_between
from benchboard.pipeline.queue import enqueue_series
from benchboard.runs.store import RESULT_COPY, RUN_COPY
from benchboard.suites.branches import default_branch

STEP = timedelta(hours=1)


def _run_rows(source: Run, count: int) -> Iterator[tuple[Any, ...]]:
    """The clones of `source` in RUN_COPY's order: a new id and a later start each."""
    for index in range(1, count + 1):
        values = {column: getattr(source, column) for column in RUN_COPY.columns}
        values["id"] = uuid.uuid4()
        values["started_at"] = source.started_at + STEP * index
        yield tuple(values[column] for column in RUN_COPY.columns)


def _result_rows(
    run_rows: list[tuple[Any, ...]], results: list[Result], rng: random.Random
) -> Iterator[tuple[Any, ...]]:
    """Each clone's results in RESULT_COPY's order: the source's value, drifting slowly
    (a sine of ~4 days' period, ±10 %) with ±1.5 % noise."""
    id_at, started_at = RUN_COPY.columns.index("id"), RUN_COPY.columns.index("started_at")
    for row in run_rows:
        when: datetime = row[started_at]
        drift = 1 + 0.1 * math.sin(when.timestamp() / 3.6e5) + 0.03 * (rng.random() - 0.5)
        for result in results:
            value = result.value * drift
            factor = result.value_base / result.value
            values = {
                "run_id": row[id_at],
                "series_id": result.series_id,
                "started_at": when,
                "value": value,
                "unit": result.unit,
                "value_base": value * factor,
                "stats": None,
                "samples": None,
            }
            yield tuple(values[column] for column in RESULT_COPY.columns)


def clone(session: Session, source: Run, count: int) -> None:
    """The clones, in the caller's transaction (its months' partitions already made)."""
    results = list(session.scalars(select(Result).where(Result.run_id == source.id)))
    run_rows = list(_run_rows(source, count))
    connection = driver_connection(session)
    RUN_COPY.write(connection, run_rows)
    RESULT_COPY.write(connection, _result_rows(run_rows, results, random.Random(source.id.int)))
    session.execute(text("SELECT recount_totals()"))  # totals and history versions
    if source.branch == default_branch(session, source.suite):  # only these are checked
        enqueue_series(session, [result.series_id for result in results])


def main() -> None:
    data_dir, run_id, count = Path(sys.argv[1]), uuid.UUID(sys.argv[2]), int(sys.argv[3])
    settings = Settings().model_copy(update={"database_url": None, "data_dir": data_dir})
    engine = make_engine(resolve_database_url(settings))
    with Session(engine) as session:
        # The partitions first, in a transaction of their own, as the worker makes them.
        with session.begin():
            source = session.get_one(Run, run_id)
            months = months_between(source.started_at, source.started_at + STEP * count)
            create_months(session.connection(), months)
        with session.begin():
            clone(session, source, count)
    engine.dispose()
    print(f"cloned run {run_id} {count} times")


if __name__ == "__main__":
    main()
