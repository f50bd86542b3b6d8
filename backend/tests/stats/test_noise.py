"""The two-level noise model: DerSimonian-Laird against metafor's BCG example, and the
test's behaviour at zero and at large run-to-run variance."""

import math
import random
import statistics
from statistics import fmean

import numpy as np
import pytest
from scipy import stats

from benchboard.stats.noise import RunLevel, between_variance, compare_levels, run_level

# BCG vaccine trials (Colditz et al. 1994; metafor's dat.bcg): tpos, tneg, cpos, cneg.
BCG = [
    (4, 119, 11, 128),
    (6, 300, 29, 274),
    (3, 228, 11, 209),
    (62, 13536, 248, 12619),
    (33, 5036, 47, 5761),
    (180, 1361, 372, 1079),
    (8, 2537, 10, 619),
    (505, 87886, 499, 87892),
    (29, 7470, 45, 7232),
    (17, 1699, 65, 1600),
    (186, 50448, 141, 27197),
    (5, 2493, 3, 2338),
    (27, 16886, 29, 17825),
]


def test_between_variance_is_dersimonian_laird_as_in_metafor() -> None:
    # metafor: rma(yi, vi, data = escalc("RR", ...dat.bcg), method = "DL") -> tau^2 = 0.3088
    trials = [
        RunLevel(
            math.log((a / (a + b)) / (c / (c + d))), 1 / a - 1 / (a + b) + 1 / c - 1 / (c + d), 2
        )
        for a, b, c, d in BCG
    ]
    tau2, df = between_variance([trials])
    assert df == 12
    assert tau2 == pytest.approx(0.3088, abs=5e-4)


def replicated_runs(
    rng: random.Random, levels: list[float], *, offset_sd: float, cv: float = 0.01, n: int = 20
) -> list[RunLevel]:
    """Runs at ``levels``, each shifted by a run offset, with ``n`` Gaussian samples."""
    runs = []
    for level in levels:
        centre = level * (1 + offset_sd * rng.gauss(0, 1))
        runs.append(run_level(centre, [centre * (1 + cv * rng.gauss(0, 1)) for _ in range(n)]))
    return runs


def test_without_run_to_run_variance_the_test_has_the_samples_power() -> None:
    rng = random.Random(3)
    runs = replicated_runs(rng, [100.0] * 4 + [101.0] * 2, offset_sd=0.0)
    difference = compare_levels(runs[:4], runs[4:])
    assert difference is not None
    assert difference.replicates_used
    assert difference.between_variance < 0.002**2  # τ² (of logs) near zero: CV < 0.2 %
    assert difference.df > 30  # the samples' degrees of freedom, not the runs'
    assert difference.p_value() < 0.01  # 1 % at 1 % sample noise, 20 samples a run


def test_with_large_run_to_run_variance_the_test_falls_back_to_run_levels() -> None:
    rng = random.Random(5)
    runs = replicated_runs(rng, [100.0] * 6 + [103.0] * 3, offset_sd=0.03)
    difference = compare_levels(runs[:6], runs[6:])
    assert difference is not None
    assert difference.between_variance > 10 * (difference.within_variance or 0.0)
    assert difference.df == pytest.approx(7, abs=0.5)  # k - 2 runs' worth
    # Close to Student's t on the run levels alone.
    levels = [r.level for r in runs]
    reference = stats.ttest_ind(levels[:6], levels[6:]).pvalue
    assert difference.p_value() == pytest.approx(reference, rel=0.25)


def test_value_only_runs_get_students_pooled_t_on_log_levels() -> None:
    before, after = [100.0, 101.0, 99.0], [130.0, 131.0]
    difference = compare_levels([RunLevel(v) for v in before], [RunLevel(v) for v in after])
    assert difference is not None
    assert not difference.replicates_used
    assert difference.log_scale
    reference = stats.ttest_ind(np.log(before), np.log(after)).pvalue
    assert difference.p_value() == pytest.approx(reference)
    # The levels are in the unit: the geometric means of the runs.
    assert (difference.before, difference.after) == (
        pytest.approx(statistics.geometric_mean(before)),
        pytest.approx(statistics.geometric_mean(after)),
    )
    assert compare_levels([RunLevel(1.0)], [RunLevel(2.0)]) is None  # no noise to judge by


def test_a_zero_or_negative_level_falls_back_to_the_linear_scale() -> None:
    """Counts and deltas can be zero or negative: no logarithm, the levels as they are."""
    for before, after in (
        ([0.0, 1.0, 2.0], [9.0, 10.0]),
        ([-101.0, -99.0, -100.0], [-80.0, -81.0]),
    ):
        difference = compare_levels([RunLevel(v) for v in before], [RunLevel(v) for v in after])
        assert difference is not None
        assert not difference.log_scale
        assert difference.difference == pytest.approx(fmean(after) - fmean(before))
        assert difference.p_value() == pytest.approx(stats.ttest_ind(before, after).pvalue)
    deltas = [run_level(0.0, [-2.0 + x, -1.9 + x, -2.1 + x]) for x in (0.0, 0.05, -0.05, 3.0)]
    linear = compare_levels(deltas[:3], deltas[3:])
    assert linear is not None
    assert (linear.replicates_used, linear.log_scale) == (True, False)
    assert linear.difference == pytest.approx(3.0)
    low, high = linear.relative_interval(0.99, change=-1.5, before=-2.0)
    half = stats.t.ppf(0.995, linear.df) * linear.standard_error / 2.0
    assert (low, high) == (pytest.approx(-1.5 - half), pytest.approx(-1.5 + half))


def test_multiplicative_noise_is_judged_on_the_log_scale() -> None:
    """A run 37 times slower scatters 37 times wider: on the linear scale its own spread
    hides the step; on logarithms (delta method, v / y²) it stands out."""
    rng = random.Random(37)
    tight = replicated_runs(rng, [7.0] * 3, offset_sd=0.0, n=10)
    slow = run_level(0.0, [168.0, 410.0, 259.0, 190.0, 334.0])
    difference = compare_levels(tight, [slow])
    assert difference is not None
    assert difference.log_scale
    assert difference.difference == pytest.approx(math.log(259.0 / difference.before))
    assert difference.after == pytest.approx(259.0)
    assert difference.p_value() < 1e-6
    # The interval of the relative change is multiplicative: (1 + change) e^(∓ half).
    change = 259.0 / difference.before - 1
    low, high = difference.relative_interval(0.99, change=change, before=difference.before)
    assert (1 + low) * (1 + high) == pytest.approx((1 + change) ** 2)
    assert 0 < low < change < high
    assert difference.relative_sd(0.01, before=difference.before) == pytest.approx(0.1)


def test_a_run_level_is_its_median_with_a_robust_standard_error() -> None:
    level = run_level(0.0, [10.0, 10.1, 9.9, 10.0, 50.0])  # one slow iteration
    assert level.level == 10.0
    assert level.n == 5
    # MAD = 0.1 -> σ = 0.148, v = π/2 σ² / 5: the 50 does not blow it up.
    assert level.variance == pytest.approx(math.pi / 2 * (1.4826 * 0.1) ** 2 / 5)
    from_stats = run_level(0.0, (), {"n": 10, "mean": 5.0, "stddev": 1.0})
    assert (from_stats.level, from_stats.variance) == (5.0, pytest.approx(0.1))
    assert run_level(7.0).variance is None


def test_a_run_level_says_which_figure_of_the_run_it_is() -> None:
    assert (run_level(5.0, [1.0, 2.0, 9.0]).level, run_level(5.0, [1.0, 2.0, 9.0]).source) == (
        2.0,
        "samples_median",
    )
    described = {"median": 4.0, "mean": 4.5, "n": 3, "stddev": 1.0}
    assert run_level(5.0, [1.0, 2.0], described).source == "stats_median"  # two samples: stats
    assert run_level(5.0, (), {"mean": 4.5}).level == 4.5
    assert run_level(5.0, (), {"mean": 4.5}).source == "stats_mean"
    assert (run_level(5.0, (), {"min": 1.0}).level, run_level(5.0, (), {"min": 1.0}).source) == (
        5.0,
        "value",
    )
    assert run_level(5.0).source == "value"
