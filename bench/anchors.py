"""The anchors bench/regression_quality.py sets beside our detector, on the same data.

- Conbench: lookback z-score, each run against the mean/stddev of up to 100 before, |z| > 5.
- Perfherder (treeherder perfalert): weighted t-test, 12/24 runs back, 12 forward, t > 7.
- Hunter-like: binary segmentation of run levels, the split with the largest Welch |t|
  kept while its two-sided p-value is at most 0.001 (Hunter's default), then recursing
  into both sides (E-divisive's search with a t-test, as Hunter uses to accept splits).
- Naive Welch: each run's samples against the previous run's, p < 0.01, as if all samples
  were independent (the mistake the two-level noise model avoids); runs with replicates only.

Each returns detections as (index of the first run after the change, "up" or "down").
"""

import numpy as np
from scipy import stats
from synthetic import Series

Detection = tuple[int, str]


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


def run_hunter(series: Series, *, max_p: float = 0.001, min_side: int = 2) -> list[Detection]:
    """Hunter-like binary segmentation on run levels (module docstring)."""
    values = np.asarray([observation.value for observation in series.observations])
    found: list[Detection] = []
    pending = [(0, len(values))]
    while pending:
        start, stop = pending.pop()
        best = _best_welch_split(values[start:stop], min_side)
        if best is None or best[1] > max_p:
            continue
        split = start + best[0]
        before, after = values[start:split].mean(), values[split:stop].mean()
        found.append((split, "up" if after > before else "down"))
        pending += [(start, split), (split, stop)]
    return sorted(found)


def _best_welch_split(values: np.ndarray, min_side: int) -> tuple[int, float] | None:
    best: tuple[int, float] | None = None
    for split in range(min_side, len(values) - min_side + 1):
        a, b = values[:split], values[split:]
        if a.std() == 0 and b.std() == 0:
            continue
        p_value = float(stats.ttest_ind(a, b, equal_var=False).pvalue)
        if best is None or p_value < best[1]:
            best = (split, p_value)
    return best


def run_naive_welch(series: Series, *, alpha: float = 0.01) -> list[Detection]:
    """Welch's t-test between consecutive runs' samples, samples taken as independent."""
    flagged: list[Detection] = []
    runs = series.observations
    for index in range(1, len(runs)):
        before, after = runs[index - 1].samples, runs[index].samples
        if len(before) < 2 or len(after) < 2:
            continue
        if float(stats.ttest_ind(before, after, equal_var=False).pvalue) < alpha:
            way = "up" if np.mean(after) > np.mean(before) else "down"
            flagged.append((index, way))
    return _first_of_streaks(flagged)
