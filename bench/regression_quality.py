"""Precision, recall and F1 of change detection on labelled synthetic series.

Usage: python bench/regression_quality.py [--seed N] [--series N] [--sparse N] [--short N]

Compares benchboard.detection.detect, run the way the service runs it (after
every new run, over the history so far, reconciling with what was stored),
against the anchors of bench/anchors.py on the same data: Conbench's lookback
z-score, Perfherder's windowed t-test, a Hunter-like binary segmentation and a
naive Welch test on consecutive runs' samples. Data: the long histories of
bench/synthetic.py (per-family table), then the quality table over them and the
short and sparse histories of bench/synthetic_sparse.py. See bench/README.md for
the scoring rules.
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

from anchors import run_conbench, run_hunter, run_naive_welch, run_perfherder  # noqa: E402
from synthetic import FAMILIES, Series, TrueChange, make_series  # noqa: E402
from synthetic_sparse import make_short, make_sparse  # noqa: E402

from benchboard.detection.detect import (  # noqa: E402
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


Detector = Callable[[Series], list[Detection]]
ANCHORS: dict[str, Detector] = {
    "conbench z>5": run_conbench,
    "perfherder t>7": run_perfherder,
    "hunter-like": run_hunter,
}
NAIVE = "naive welch"


def evaluate(all_series: list[Series]) -> tuple[dict[str, dict[str, Tally]], list[float], int]:
    """Tallies per detector and per group ("all", each family, replicates)."""
    timings: list[float] = []
    retractions = 0
    tallies: dict[str, dict[str, Tally]] = {}
    for series in all_series:
        ours, retracted = run_ours(series, timings)
        retractions += retracted
        results = {"benchboard": ours, **{name: run(series) for name, run in ANCHORS.items()}}
        if series.has_samples:
            results[NAIVE] = run_naive_welch(series)
        groups = ["all", series.family, "replicates" if series.has_samples else "single value"]
        for name, detections in results.items():
            tally = score(series, detections)
            for group in groups:
                tallies.setdefault(name, {}).setdefault(group, Tally()).add(tally)
    return tallies, timings, retractions


def print_report(all_series: list[Series], seed: int) -> dict[str, dict[str, Tally]]:
    tallies, timings, retractions = evaluate(all_series)
    scored = sum(change.scored for series in all_series for change in series.changes)
    unscored = sum(not change.scored for series in all_series for change in series.changes)
    print(f"seed {seed}: {len(all_series)} series, {scored} scored changes, {unscored} unscored")
    print_groups(tallies, ["all", *FAMILIES, "single value", "replicates"])
    ms = np.asarray(timings) * 1000
    print(
        f"benchboard per call, incremental (histories of 2-100 runs): mean {ms.mean():.2f} ms, "
        f"p99 {np.percentile(ms, 99):.2f} ms, max {ms.max():.2f} ms ({len(ms)} calls); "
        f"{retractions} stored detections retracted along the way"
    )
    return tallies


def print_groups(tallies: dict[str, dict[str, Tally]], groups: list[str]) -> None:
    header = f"{'detector':<16}{'group':<14}{'TP':>5}{'FP':>5}{'FN':>5}{'ign':>5}"
    print(header + f"{'precision':>11}{'recall':>8}{'F1':>7}")
    for name, by_group in tallies.items():
        for group in groups:
            tally = by_group.get(group, Tally())
            precision, recall, f1 = tally.figures()
            print(
                f"{name:<16}{group:<14}{tally.true_positive:>5}{tally.false_positive:>5}"
                f"{tally.false_negative:>5}{tally.ignored:>5}"
                f"{precision:>11.3f}{recall:>8.3f}{f1:>7.3f}"
            )


TARGETS = {
    "long histories": "P >= 0.97, F1 >= 0.96",
    "sparse, replicates, no run-to-run": "P >= 0.95, F1 >= 0.85",
    "sparse, replicates, run-to-run": "P >= 0.95, F1 >= 0.90",
    "short value-only (30 % step / flat)": ">= 90 % found, 0 false alarms on flat",
}


def quality_table(
    datasets: dict[str, list[Series]], known: dict[str, dict[str, dict[str, Tally]]]
) -> None:
    """One row per dataset: our figures and each anchor's, in Markdown (``known``: tallies
    already computed, by dataset)."""
    names = ["benchboard", *ANCHORS, NAIVE]
    print("\n| data | target | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for dataset, all_series in datasets.items():
        tallies = known[dataset] if dataset in known else evaluate(all_series)[0]
        cells = [_cell(dataset, tallies.get(name, {}), all_series) for name in names]
        print(
            f"| {dataset} ({len(all_series)} series) | {TARGETS[dataset]} | "
            + " | ".join(cells)
            + " |"
        )
    print("cells: precision / recall / F1; short: steps found, false alarms on flat series")


def _cell(dataset: str, by_group: dict[str, Tally], all_series: list[Series]) -> str:
    if "all" not in by_group:
        return "n/a"
    if dataset.startswith("short"):
        steps, flat = by_group.get("step", Tally()), by_group.get("flat", Tally())
        found = steps.true_positive / max(1, steps.true_positive + steps.false_negative)
        flats = sum(series.family == "flat" for series in all_series)
        return f"{found:.0%} found, {flat.false_positive} FA / {flats} flat"
    precision, recall, f1 = by_group["all"].figures()
    return f"{precision:.3f} / {recall:.3f} / {f1:.3f}"


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
    parser.add_argument("--series", type=int, default=1000, help="long histories")
    parser.add_argument("--sparse", type=int, default=600, help="sparse histories, each kind")
    parser.add_argument("--short", type=int, default=400, help="short value-only histories")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    all_series = [make_series(rng, number) for number in range(args.series)]
    long_tallies = print_report(all_series, args.seed)
    print_timing(all_series)
    quality_table(
        {
            "long histories": all_series,
            "sparse, replicates, no run-to-run": [
                make_sparse(rng, n, run_to_run=False) for n in range(args.sparse)
            ],
            "sparse, replicates, run-to-run": [
                make_sparse(rng, n, run_to_run=True) for n in range(args.sparse)
            ],
            "short value-only (30 % step / flat)": [make_short(rng, n) for n in range(args.short)],
        },
        {"long histories": long_tallies},
    )


if __name__ == "__main__":
    main()
