"""The seed studies loaded through the upload path, for read tests, and what they hold,
counted from the demo files themselves so tests follow the data."""

from collections import Counter
from functools import cache

import orjson
import pytest
from sqlalchemy.orm import Session

from benchboard.demo import demo_files, load_demo
from benchboard.series.identity import series_fingerprint


@pytest.fixture
def seeded(session: Session) -> None:
    load_demo(session)
    session.commit()


@cache
def demo_runs() -> list[dict[str, object]]:
    return [orjson.loads(body) for _, body in demo_files()]


def demo_suites() -> set[str]:
    return {str(run["suite"]) for run in demo_runs()}


def demo_run_count(suite: str) -> int:
    return sum(run["suite"] == suite for run in demo_runs())


def demo_result_count(suite: str | None = None) -> int:
    counts: Counter[str] = Counter()
    for run in demo_runs():
        counts[str(run["suite"])] += len(run["results"])  # type: ignore[arg-type]
    return counts[suite] if suite else sum(counts.values())


def demo_series_count() -> int:
    fingerprints = {
        series_fingerprint(
            suite=run["suite"],
            benchmark=result["benchmark"],
            params=result.get("params", {}),
            language=result["language"],
            implementation=result.get("implementation"),
            mode=result.get("mode"),
            variant=result.get("variant"),
            hardware=run["hardware"]["name"],
            metric=result["metric"],
        )
        for run in demo_runs()
        for result in run["results"]  # type: ignore[attr-defined]
    }
    return len(fingerprints)
