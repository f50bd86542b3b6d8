"""Labelled short and sparse histories for bench/regression_quality.py (issue 9).

- ``sparse``: publication-style histories of 8-14 runs, each run with 15-30 ``samples``
  around the run's level. The samples' shape is one of four families at a within-run CV
  of 0.5-6 %: ``gaussian``; ``skewed`` (standardised log-normal, shape 0.8);
  ``outliers`` (a Gaussian core plus 5 % of iterations 1.5-4x slower); ``bimodal``
  (each iteration in a slow mode with probability 0.2-0.4; the two modes together have
  the CV). With ``run_to_run`` the run's level itself moves by a per-run offset of
  0.5-1x the within-run CV in about half the series (the other half has none); without,
  it never does. 35 % of series have no change; the rest one step of 2-40 % that leaves
  2 or more runs after it.
- ``short``: value-only histories at 1 % Gaussian noise: 3-5 runs, then 2-3 runs after
  a 30 % step (up or down); and flat series of 5-8 runs with no change.

A change is scored when it is at least 4 times the standard error of one run's level
(sampling plus run-to-run: ``sqrt(cv² / n + offset²)``) and 2 or more runs follow it;
smaller ones are labelled but not scored (a detection of them is ignored).
"""

import numpy as np
from synthetic import Series, TrueChange

from benchboard.detection.detect import Observation

SAMPLE_FAMILIES = ("gaussian", "skewed", "outliers", "bimodal")


def make_sparse(rng: np.random.Generator, number: int, *, run_to_run: bool) -> Series:
    runs = int(rng.integers(8, 15))
    family = SAMPLE_FAMILIES[number % len(SAMPLE_FAMILIES)]
    cv = float(np.exp(rng.uniform(np.log(0.005), np.log(0.06))))
    offset = float(rng.uniform(0.5, 1.0)) * cv if run_to_run and rng.random() < 0.5 else 0.0
    higher_is_better = bool(rng.random() < 0.5)
    levels = np.full(runs, 100.0)
    start = None
    if rng.random() >= 0.35:
        start = int(rng.integers(2, runs - 1))  # 2+ runs before, 2+ after
        size = float(np.exp(rng.uniform(np.log(0.02), np.log(0.4))))
        levels[start:] *= 1.0 + size if rng.random() < 0.5 else 1.0 - size
    slow_is_up = not higher_is_better
    observations = []
    counts = rng.integers(15, 31, runs)
    for i, (level, count) in enumerate(zip(levels, counts, strict=True)):
        centre = level * (1.0 + offset * rng.standard_normal())
        samples = centre * _sample_noise(rng, family, cv, int(count), slow_is_up=slow_is_up)
        observations.append(
            Observation(key=f"r{i}", value=float(samples.mean()), samples=tuple(samples.tolist()))
        )
    changes = []
    if start is not None:
        relative = float(levels[start] / levels[start - 1] - 1.0)
        level_se = np.sqrt(cv**2 / float(counts.mean()) + offset**2)
        changes.append(TrueChange(start, relative, abs(relative) >= 4 * level_se))
    name = f"sparse{'-tau' if run_to_run else ''}-{number:04d}"
    return Series(name, family, cv, higher_is_better, True, observations, changes)


def _sample_noise(
    rng: np.random.Generator, family: str, cv: float, count: int, *, slow_is_up: bool
) -> np.ndarray:
    if family == "gaussian":
        return 1.0 + cv * rng.standard_normal(count)
    if family == "skewed":
        shape = 0.8
        raw = rng.lognormal(0.0, shape, count)
        mean, std = np.exp(shape**2 / 2), np.sqrt((np.exp(shape**2) - 1) * np.exp(shape**2))
        skewed: np.ndarray = 1.0 + cv * (raw - mean) / std
        return skewed
    if family == "outliers":
        core = 1.0 + cv * rng.standard_normal(count)
        slow = rng.uniform(1.5, 4.0, count)
        hit = rng.random(count) < 0.05
        return np.where(hit, core * (slow if slow_is_up else 1.0 / slow), core)
    share = float(rng.uniform(0.2, 0.4))
    within = 0.35 * cv
    gap = np.sqrt((cv**2 - within**2) / (share * (1 - share)))
    in_slow_mode = rng.random(count) < share
    offset = np.where(in_slow_mode, gap * (1 - share), -gap * share)
    bimodal: np.ndarray = 1.0 + (offset if slow_is_up else -offset)
    return bimodal + within * rng.standard_normal(count)


def make_short(rng: np.random.Generator, number: int) -> Series:
    """Even numbers: 3-5 runs, then 2-3 after a 30 % step; odd: 5-8 flat runs."""
    higher_is_better = bool(rng.random() < 0.5)
    if number % 2:
        runs, start = int(rng.integers(5, 9)), None
    else:
        before = int(rng.integers(3, 6))
        runs, start = before + int(rng.integers(2, 4)), before
    levels = np.full(runs, 100.0)
    if start is not None:
        levels[start:] *= 1.3 if rng.random() < 0.5 else 0.7
    values = levels * (1.0 + 0.01 * rng.standard_normal(runs))
    observations = [Observation(key=f"r{i}", value=float(v)) for i, v in enumerate(values)]
    changes = [] if start is None else [TrueChange(start, float(levels[start] / 100 - 1), True)]
    kind = "flat" if start is None else "step"
    return Series(
        f"short-{kind}-{number:04d}", kind, 0.01, higher_is_better, False, observations, changes
    )
