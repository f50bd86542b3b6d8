"""Labelled synthetic benchmark histories for bench/regression_quality.py.

Each series is 40-100 runs of one metric around a level of 100. Noise is one of
four families, scaled to a coefficient of variation (CV) between 0.5 % and 6 %:

- ``gaussian``: symmetric, ``1 + cv * N(0, 1)``.
- ``lognormal``: right-skewed (standardised log-normal with shape 0.8).
- ``outliers``: Gaussian core, plus 5 % of runs made 10-60 % slower (a GC
  pause, a noisy neighbour): higher for a time, lower for a throughput.
- ``bimodal``: each run lands in a slow mode with probability 0.2-0.5; the two
  modes together have the CV (each mode alone is much tighter).

The CV is the scale of the family (for ``outliers``, of the core), and it is
what "noise level" means when deciding whether a change is large enough to
score. 30 % of series carry 5-10 replicates per run: the family noise is then
the run-to-run part, each sample adds its own CV-sized noise with 3 % slow
iterations, and the headline value is the mean of the samples.

Changes: 30 % of series have none, 45 % one step of 3-50 % up or down, 25 % a
step and its revert 8-20 runs later.
"""

from dataclasses import dataclass

import numpy as np

from benchboard.detection.detect import Observation

FAMILIES = ("gaussian", "lognormal", "outliers", "bimodal")


@dataclass(frozen=True)
class TrueChange:
    """A labelled change: ``index`` is the first run at the new level."""

    index: int
    relative: float
    scored: bool


@dataclass(frozen=True)
class Series:
    name: str
    family: str
    cv: float
    higher_is_better: bool
    has_samples: bool
    observations: list[Observation]
    changes: list[TrueChange]


def make_series(rng: np.random.Generator, number: int) -> Series:
    """One random labelled series."""
    runs = int(rng.integers(40, 101))
    family = FAMILIES[number % len(FAMILIES)]
    cv = float(np.exp(rng.uniform(np.log(0.005), np.log(0.06))))
    higher_is_better = bool(rng.random() < 0.5)
    levels, change_points = _levels(rng, runs)
    noise = _noise(rng, family, cv, runs, slow_is_up=not higher_is_better)
    has_samples = bool(rng.random() < 0.3)
    observations = _observations(rng, levels * noise, cv, has_samples, not higher_is_better)
    changes = _label(levels, change_points, cv)
    return Series(
        f"s{number:04d}", family, cv, higher_is_better, has_samples, observations, changes
    )


def _levels(rng: np.random.Generator, runs: int) -> tuple[np.ndarray, list[int]]:
    """The true level of every run and the indexes where it changes."""
    levels = np.full(runs, 100.0)
    kind = rng.random()
    if kind < 0.30:
        return levels, []
    size = float(np.exp(rng.uniform(np.log(0.03), np.log(0.5))))
    factor = 1.0 + size if rng.random() < 0.5 else 1.0 - size
    if kind < 0.75:
        start = int(rng.integers(10, runs - 3))
        levels[start:] *= factor
        return levels, [start]
    start = int(rng.integers(10, runs - 20))
    stop = min(start + int(rng.integers(8, 21)), runs - 4)
    levels[start:stop] *= factor
    return levels, [start, stop]


def _noise(
    rng: np.random.Generator, family: str, cv: float, runs: int, *, slow_is_up: bool
) -> np.ndarray:
    """Multiplicative noise factors with mean about 1 and the family's shape."""
    if family == "gaussian":
        return 1.0 + cv * rng.standard_normal(runs)
    if family == "lognormal":
        shape = 0.8
        raw = rng.lognormal(0.0, shape, runs)
        mean = np.exp(shape**2 / 2)
        std = np.sqrt((np.exp(shape**2) - 1) * np.exp(shape**2))
        skewed: np.ndarray = 1.0 + cv * (raw - mean) / std
        return skewed
    if family == "outliers":
        core = 1.0 + cv * rng.standard_normal(runs)
        slow = 1.0 + rng.uniform(0.1, 0.6, runs)
        hit = rng.random(runs) < 0.05
        return np.where(hit, core * (slow if slow_is_up else 1.0 / slow), core)
    return _bimodal(rng, cv, runs, slow_is_up=slow_is_up)


def _bimodal(rng: np.random.Generator, cv: float, runs: int, *, slow_is_up: bool) -> np.ndarray:
    slow_share = float(rng.uniform(0.2, 0.5))
    within = 0.35 * cv
    gap = np.sqrt((cv**2 - within**2) / (slow_share * (1 - slow_share)))
    slow = rng.random(runs) < slow_share
    offset = np.where(slow, gap * (1 - slow_share), -gap * slow_share)
    offset = offset if slow_is_up else -offset
    noise: np.ndarray = 1.0 + offset + within * rng.standard_normal(runs)
    return noise


def _observations(
    rng: np.random.Generator, values: np.ndarray, cv: float, has_samples: bool, slow_is_up: bool
) -> list[Observation]:
    if not has_samples:
        return [Observation(key=f"r{i}", value=float(v)) for i, v in enumerate(values)]
    observations = []
    for i, run_value in enumerate(values):
        count = int(rng.integers(5, 11))
        samples = run_value * (1.0 + cv * rng.standard_normal(count))
        slow = 1.0 + rng.uniform(0.05, 0.3, count)
        hit = rng.random(count) < 0.03
        samples = np.where(hit, samples * (slow if slow_is_up else 1.0 / slow), samples)
        observations.append(
            Observation(key=f"r{i}", value=float(samples.mean()), samples=tuple(samples.tolist()))
        )
    return observations


def _label(levels: np.ndarray, change_points: list[int], cv: float) -> list[TrueChange]:
    """Score a change if it is >= 2.5x the noise and its new level lasts >= 8 runs."""
    bounds = [*change_points, len(levels)]
    changes = []
    for i, index in enumerate(change_points):
        relative = float(levels[index] / levels[index - 1] - 1.0)
        lasts = bounds[i + 1] - index
        scored = abs(relative) >= 2.5 * cv and lasts >= 8
        changes.append(TrueChange(index, relative, scored))
    return changes
