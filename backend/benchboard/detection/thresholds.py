"""The detector's thresholds, in one place: detect.py's defaults, the short-history path
(short.py), the state a series' page shows (state.py), the triage API's wording of it and
baseline verdicts (compare/verdict.py) all read them here, so the service never judges a
change by one number and explains it by another."""

# A change must move the level by at least this fraction to be reported at all.
MIN_RELATIVE_CHANGE = 0.02
# The false-alarm rate of one test (Bonferroni-adjusted where a search tries several).
SIGNIFICANCE = 0.01
# Runs the rank search needs on each side of a change it places.
RANK_RUNS_AFTER = 3
# The newest segment is judged by the t-test only while shorter than this (the shortest
# window of the rank search): with more runs ranks reach significance and keep their
# immunity to outliers and skew.
SHORT_SEGMENT = 16
SHORT_SIGNIFICANCE = 0.1  # times SIGNIFICANCE, for the short path's t-test
NOISE_GUARD = 4.0
PROVISIONAL_SPREAD_GUARD = 5.0
# The fewest runs (before, after) a change needs on the short path: value-only runs, and
# runs with replicates, whose within-run spread lets one run after a step speak.
VALUE_ONLY_SIDES = (3, 2)
REPLICATE_SIDES = (2, 1)
# Runs of history a baseline verdict needs to estimate run-to-run noise.
MIN_HISTORY_RUNS = 3


def sides_needed_text() -> str:
    """ "3 before it and 2 after; 2 and 1 with replicates": what a change needs, in words."""
    (before, after), (with_before, with_after) = VALUE_ONLY_SIDES, REPLICATE_SIDES
    return f"{before} before it and {after} after; {with_before} and {with_after} with replicates"
