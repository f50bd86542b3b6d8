"""Precision, recall and F1 of change detection on labelled synthetic series.

Usage: python bench/regression_quality.py [--seed N] [--series N]

Compares benchboard.regressions.detect, run the way the service runs it (after
every new run, over the history so far, reconciling with what was stored),
against two anchors on the same data: Conbench's lookback z-score and
Perfherder's windowed t-test. See bench/README.md for the scoring rules.
"""

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

_BACKEND = Path(__file__).resolve().parents[1] / "backend"
if str(_BACKEND) not in sys.path:
    sys.path.insert(0, str(_BACKEND))

from synthetic import FAMILIES, Series, TrueChange, make_series  # noqa: E402

from benchboard.regressions.detect import (  # noqa: E402
    DetectedChange,
    StoredChange,
    detect_changes,
    reconcile_changes,
)

# A detection is (index of the first run after the change, "up" or "down").
Detection = tuple[int, str]

WINDOW_BEFORE = 1
WINDOW_AFTER = 5
# Changes under 2.5x the noise are hard to place; a detection this close to one
# in its direction is taken to be of it, and ignored.
UNSCORED_WINDOW = 8


@dataclass
class Tally:
    true_positive: int = 0
    false_positive: int = 0
    false_negative: int = 0
    ignored: int = 0

    def add(self, other: "Tally") -> None:
        self.true_positive += other.true_positive
        self.false_positive += other.false_positive
        self.false_negative += other.false_negative
        self.ignored += other.ignored

    def figures(self) -> tuple[float, float, float]:
        found = self.true_positive + self.false_positive
        real = self.true_positive + self.false_negative
        precision = self.true_positive / found if found else 1.0
        recall = self.true_positive / real if real else 1.0
        total = precision + recall
        return precision, recall, (2 * precision * recall / total if total else 0.0)


def score(series: Series, detections: Sequence[Detection]) -> Tally:
    """Match detections one-to-one to labelled changes, same direction, in window.

    A detection matching only an unscored change (too small, or its level lasts
    under 8 runs; within UNSCORED_WINDOW runs) is ignored: neither a true nor a
    false positive.
    """
    tally = Tally()
    unmatched = {change.index: change for change in series.changes}
    for index, way in sorted(detections):
        fits = [
            change
            for change in unmatched.values()
            if (change.relative > 0) == (way == "up") and _in_window(change, index)
        ]
        if not fits:
            tally.false_positive += 1
            continue
        best = min(fits, key=lambda change: (not change.scored, abs(index - change.index)))
        del unmatched[best.index]
        if best.scored:
            tally.true_positive += 1
        else:
            tally.ignored += 1
    tally.false_negative = sum(change.scored for change in unmatched.values())
    return tally


def _in_window(change: TrueChange, index: int) -> bool:
    if change.scored:
        return change.index - WINDOW_BEFORE <= index <= change.index + WINDOW_AFTER
    return abs(index - change.index) <= UNSCORED_WINDOW


def _way(change: DetectedChange) -> str:
    return "up" if change.relative_change > 0 else "down"


def run_ours(series: Series, timings: list[float]) -> tuple[list[Detection], int]:
    """Incremental, as the service runs: returns the kept detections and retractions."""
    stored: dict[str, DetectedChange] = {}
    retractions = 0
    for length in range(2, len(series.observations) + 1):
        history = series.observations[:length]
        started = time.perf_counter()
        fresh = detect_changes(history, higher_is_better=series.higher_is_better)
        timings.append(time.perf_counter() - started)
        outcome = reconcile_changes(
            [observation.key for observation in history],
            [StoredChange(key, change.direction) for key, change in stored.items()],
            fresh,
        )
        for key in outcome.retracted:
            del stored[key]
            retractions += 1
        for key, change in outcome.refined.items():
            stored[key] = replace(change, index=stored[key].index, key=key)
        for change in outcome.new:
            stored[change.key] = change
    return [(change.index, _way(change)) for change in stored.values()], retractions


def run_conbench(series: Series, *, window: int = 100, threshold: float = 5.0) -> list[Detection]:
    """Conbench lookback z-score: each run against the mean/stddev of up to 100 before.

    Consecutive flagged runs in the same direction count once (the first), the
    way a stored alert would be.
    """
    values = [observation.value for observation in series.observations]
    flagged: list[Detection] = []
    for index in range(2, len(values)):
        history = np.asarray(values[max(0, index - window) : index])
        spread = float(history.std(ddof=1))
        if spread == 0.0:
            continue
        z = (values[index] - float(history.mean())) / spread
        if abs(z) > threshold:
            flagged.append((index, "up" if z > 0 else "down"))
    return _first_of_streaks(flagged)


def _first_of_streaks(flagged: list[Detection]) -> list[Detection]:
    kept: list[Detection] = []
    previous: Detection | None = None
    for index, way in flagged:
        if previous != (index - 1, way):
            kept.append((index, way))
        previous = (index, way)
    return kept


def run_perfherder(series: Series) -> list[Detection]:
    """Perfherder (treeherder perfalert): weighted t-test, 12/24 back, 12 forward, t > 7, >= 2 %."""
    values = [observation.value for observation in series.observations]
    t_values, ready, back_means, fore_means = _perfherder_t(values)
    detections: list[Detection] = []
    for i in range(1, len(values)):
        if not ready[i] or t_values[i] <= 7.0 or t_values[i - 1] > t_values[i]:
            continue
        if i + 1 < len(values) and t_values[i + 1] > t_values[i]:
            continue
        change = (fore_means[i] - back_means[i]) / back_means[i]
        if abs(change) >= 0.02:
            detections.append((i, "up" if change > 0 else "down"))
    return detections


def _perfherder_t(values: list[float]) -> tuple[list[float], list[bool], list[float], list[float]]:
    """|t| per run, whether both windows were full, and the plain window means."""
    min_back, max_back, fore = 12, 24, 12
    t_values, ready = [0.0] * len(values), [False] * len(values)
    back_means, fore_means = [0.0] * len(values), [0.0] * len(values)
    since_regression = 0
    for i in range(1, len(values)):
        back_len = min(max(since_regression, min_back), max_back, i)
        back = values[i - back_len : i][::-1]
        forward = values[i : i + fore]
        t_values[i] = abs(_weighted_t(back, forward))
        since_regression = 0 if t_values[i] > 7.0 else since_regression + 1
        back_means[i], fore_means[i] = float(np.mean(back)), float(np.mean(forward))
        ready[i] = len(back) >= min_back and len(forward) >= fore
    return t_values, ready, back_means, fore_means


def _weighted_t(back: list[float], forward: list[float]) -> float:
    """Treeherder's calc_t with linear weights (nearest run weighs most)."""
    if not back or not forward:
        return 0.0
    stats = [_weighted_stats(window) for window in (back, forward)]
    delta = stats[1][0] - stats[0][0]
    if delta == 0.0:
        return 0.0
    if stats[0][1] == 0.0 and stats[1][1] == 0.0:
        return float("inf")
    return float(delta / np.sqrt(stats[0][1] / len(back) + stats[1][1] / len(forward)))


def _weighted_stats(window: list[float]) -> tuple[float, float]:
    n = len(window)
    weights = np.array([(n - i) / n for i in range(n)])
    data = np.asarray(window)
    average = float((data * weights).sum() / weights.sum())
    variance = float(((data - average) ** 2).sum() / (n - 1)) if n > 1 else 0.0
    return average, variance


Detector = Callable[[Series], list[Detection]]


def evaluate(all_series: list[Series]) -> tuple[dict[str, dict[str, Tally]], list[float], int]:
    """Tallies per detector and per group ("all", each family, replicates)."""
    timings: list[float] = []
    retractions = 0
    tallies: dict[str, dict[str, Tally]] = {}
    for series in all_series:
        ours, retracted = run_ours(series, timings)
        retractions += retracted
        results = {
            "benchboard": ours,
            "conbench z>5": run_conbench(series),
            "perfherder t>7": run_perfherder(series),
        }
        groups = ["all", series.family, "replicates" if series.has_samples else "single value"]
        for name, detections in results.items():
            tally = score(series, detections)
            for group in groups:
                tallies.setdefault(name, {}).setdefault(group, Tally()).add(tally)
    return tallies, timings, retractions


def print_report(all_series: list[Series], seed: int) -> None:
    tallies, timings, retractions = evaluate(all_series)
    scored = sum(change.scored for series in all_series for change in series.changes)
    unscored = sum(not change.scored for series in all_series for change in series.changes)
    print(f"seed {seed}: {len(all_series)} series, {scored} scored changes, {unscored} unscored")
    header = f"{'detector':<16}{'group':<14}{'TP':>5}{'FP':>5}{'FN':>5}{'ign':>5}"
    print(header + f"{'precision':>11}{'recall':>8}{'F1':>7}")
    groups = ["all", *FAMILIES, "single value", "replicates"]
    for name, by_group in tallies.items():
        for group in groups:
            tally = by_group.get(group, Tally())
            precision, recall, f1 = tally.figures()
            print(
                f"{name:<16}{group:<14}{tally.true_positive:>5}{tally.false_positive:>5}"
                f"{tally.false_negative:>5}{tally.ignored:>5}"
                f"{precision:>11.3f}{recall:>8.3f}{f1:>7.3f}"
            )
    ms = np.asarray(timings) * 1000
    print(
        f"benchboard per call, incremental (histories of 2-100 runs): mean {ms.mean():.2f} ms, "
        f"p99 {np.percentile(ms, 99):.2f} ms, max {ms.max():.2f} ms ({len(ms)} calls); "
        f"{retractions} stored detections retracted along the way"
    )


def time_full_histories(all_series: list[Series], *, repeats: int = 5) -> np.ndarray:
    """Milliseconds per call on each complete history (best of a few repeats)."""
    best = []
    for series in all_series:
        calls = []
        for _ in range(repeats):
            started = time.perf_counter()
            detect_changes(series.observations, higher_is_better=series.higher_is_better)
            calls.append(time.perf_counter() - started)
        best.append(min(calls))
    return np.asarray(best) * 1000


def print_timing(all_series: list[Series]) -> None:
    longest = [series for series in all_series if len(series.observations) >= 95]
    ms = time_full_histories(longest)
    print(
        f"benchboard per call on complete 95-100-run histories ({len(ms)} series): "
        f"median {np.median(ms):.2f} ms, p99 {np.percentile(ms, 99):.2f} ms, max {ms.max():.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--series", type=int, default=1000)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    all_series = [make_series(rng, number) for number in range(args.series)]
    print_report(all_series, args.seed)
    print_timing(all_series)


if __name__ == "__main__":
    main()
