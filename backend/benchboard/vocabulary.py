"""The service's own vocabularies; the contract's (units, directions, modes) are in
`benchboard_ingest.vocabulary`. Tables, API schemas and the detector all derive from here.
"""

from typing import Literal, get_args

# Which way a detected change moved a series, judged by the series' direction.
ChangeDirection = Literal["regression", "improvement"]
CHANGE_DIRECTIONS: tuple[ChangeDirection, ...] = get_args(ChangeDirection)

# How a change of each direction reads (speed: the unit measures_speed, see
# benchboard_ingest.vocabulary); the service's and the dashboard's sentences both take
# their words from here.
CHANGE_WORDS: dict[str, dict[ChangeDirection, str]] = {
    "speed": {"regression": "slower", "improvement": "faster"},
    "other": {"regression": "worse", "improvement": "better"},
}

# Where a maintainer's triage has put a detected change.
TriageStatus = Literal[
    "untriaged", "acknowledged", "investigating", "fixed", "wontfix", "expected", "invalid"
]
TRIAGE_STATUSES: tuple[TriageStatus, ...] = get_args(TriageStatus)

# What an alert group's changes have in common: a git commit, one run (it had no commit),
# or nothing (a maintainer set the change apart: a different cause).
AlertCause = Literal["commit", "run", "apart"]
ALERT_CAUSES: tuple[AlertCause, ...] = get_args(AlertCause)

# A maintainer's curation of a series: a result left out of detection, or the baseline
# reset at a run after an intended change.
CurationKind = Literal["outlier", "baseline_reset"]
CURATION_KINDS: tuple[CurationKind, ...] = get_args(CurationKind)

# What an API token may do (see tokens.service for the grants of each).
TokenScope = Literal["read", "upload", "maintain", "admin"]
TOKEN_SCOPES: tuple[TokenScope, ...] = get_args(TokenScope)

# Who may read a suite: everyone, or only tokens that cover it.
SuiteVisibility = Literal["public", "private"]
SUITE_VISIBILITIES: tuple[SuiteVisibility, ...] = get_args(SuiteVisibility)

# What a baseline comparison says about one series: a change in a direction, or none; in
# the order a comparison counts and lists them.
BaselineVerdict = Literal["regression", "improvement", "unchanged"]
BASELINE_VERDICTS: tuple[BaselineVerdict, ...] = get_args(BaselineVerdict)

# What a baseline verdict rests on (see compare.verdict).
VerdictBasisMethod = Literal["replicates", "history", "none"]

# Which figure stands for a run's result when two runs are compared (stats.noise.run_level):
# the median of its samples, the median or mean its stats report, or its value.
LevelSource = Literal["samples_median", "stats_median", "stats_mean", "value"]

# Where a webhook delivery stands: still to send (or retrying), sent, or abandoned.
DeliveryState = Literal["pending", "delivered", "gave_up"]
DELIVERY_STATES: tuple[DeliveryState, ...] = get_args(DeliveryState)

# How a ratio's interval was computed (see stats.intervals): a confidence interval by the
# delta method on the log scale, or the extreme ratios of reported min/max ranges.
RatioIntervalMethod = Literal["delta_log", "range"]

# The test a detected change rests on (see detection.detect): ranks of run levels, the
# two-level model's t-test on runs with replicates, Student's t on value-only run levels.
DetectionTest = Literal["rank_sum", "two_level_t", "student_t"]

# Whether a series' history can support change detection now (detection.state).
DetectionReadiness = Literal["ready", "not_enough_history", "not_checked"]
