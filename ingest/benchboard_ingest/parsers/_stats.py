"""Summary statistics computed from raw samples (when a tool keeps samples only)."""

from __future__ import annotations

import statistics

from ..model import Stats


def summarize(samples: list[float]) -> Stats:
    stats: Stats = {
        "n": float(len(samples)),
        "min": min(samples),
        "max": max(samples),
        "mean": statistics.fmean(samples),
        "median": statistics.median(samples),
    }
    if len(samples) > 1:
        stats["stddev"] = statistics.stdev(samples)
    return stats
