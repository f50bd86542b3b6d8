"""Change detection for one benchmark series: pure functions.

Levels and noise
----------------
Each run becomes one level with its sampling error (``stats.noise.run_level``): the
median of its ``samples`` (three or more), else ``stats`` (median or mean, with
``n``/``stddev``), else ``value``. A history is read as columns (``Runs``): keys and
values, and the few runs with replicates or stats whole.

Long histories: seeded binary segmentation on ranks (``segmentation.py``)
-----------------------------------------------------------------------
A split is judged by the Mann-Whitney rank-sum test between the runs before and after it
(two-sided, tie corrected, exact when one side has at most 12 runs; ``ranks.py``),
Bonferroni-adjusted for the splits tried, and must move the median level by at least
``min_relative_change``. The search (seeded binary segmentation, Kovacs et al. 2020)
takes the best split of the whole history and of fixed, half-overlapping windows of 16,
32, 64 ... runs, adds the strongest one that holds, and repeats between the change
points found. Each split is then placed where two medians fit best (least absolute
deviations), and a last pass re-tests every change between its neighbours.

Why ranks there: they ignore how far an outlier lies, do not care whether noise is
skewed, and see bimodal timings as one distribution on both sides, so none of these
raises a change alone; under no change the test is distribution-free, one
``significance`` is one false-alarm rate for every noise shape.

Short histories and the newest runs: the two-level t-test (``short.py``)
-----------------------------------------------------------------------
Ranks cannot reach significance with few runs (3 before and 2 after: p >= 0.2). Where
they cannot, the newest segment is judged by the two-level noise model of
``stats.noise`` (within-run sampling error from the replicates plus run-to-run variance,
DerSimonian-Laird; Student's t on run levels for value-only runs): 3 runs before and 2
after suffice for values, 2 and 1 for runs with replicates (then *provisional* until a
second run confirms it), with a minimum relative change and a noise guard.

Evidence
--------
Every change states what it rests on (``Evidence``): runs on each side, whether the
replicates' sampling error entered the test, the test, its adjusted p-value, the
``1 - significance`` interval of the relative change (its half-width from the two-level
model of the two segments) and the noise estimates. ``confidence`` is ``1 - p``.

How the service uses it
-----------------------
After uploads, the worker calls ``detect_changes`` on the recent history of each touched
series (oldest first) from the last baseline reset on (a change a maintainer marked
``expected``), then ``reconcile_changes`` with the changes already stored for that
series. A fresh change within ``tolerance`` runs of a stored one, same direction,
refines it: the stored change keeps its run and takes the fresh sizes, evidence and
provisional flag. An untriaged stored change no longer found is retracted (a provisional
change the next run does not confirm, too); any other fresh change is new.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from benchboard.detection.segmentation import Segmenter, relative
from benchboard.detection.short import ShortChange, find_short_change
from benchboard.detection.thresholds import (
    MIN_RELATIVE_CHANGE,
    RANK_RUNS_AFTER,
    SHORT_SEGMENT,
    SIGNIFICANCE,
)
from benchboard.stats.noise import LevelDifference, RunLevel, compare_levels, run_level
from benchboard.vocabulary import ChangeDirection, DetectionTest


@dataclass(frozen=True)
class Observation:
    """One run's result for the series, in the order the runs happened."""

    key: str
    value: float
    samples: tuple[float, ...] = ()
    stats: Mapping[str, float] | None = None


@dataclass(frozen=True)
class Evidence:
    """What a detected change rests on, for readers and maintainers."""

    runs_before: int
    runs_after: int
    replicates_used: bool  # the runs' sampling error entered the test
    test: DetectionTest
    p_value: float  # adjusted for the splits tried
    interval: tuple[float, float]  # of the relative change
    interval_level: float
    run_to_run_cv: float | None  # between-run standard deviation / level before
    within_run_cv: float | None  # standard error of one run's level / level before


@dataclass(frozen=True)
class DetectedChange:
    """A change in level between ``index - 1`` and ``index``."""

    index: int
    key: str
    before: float
    after: float
    relative_change: float
    direction: ChangeDirection
    confidence: float
    evidence: Evidence
    provisional: bool = False


@dataclass(frozen=True)
class StoredChange:
    """A change the service stored earlier; triaged ones are never retracted."""

    key: str
    direction: ChangeDirection
    triaged: bool = False


@dataclass(frozen=True)
class Reconciliation:
    """What to do with the stored changes after one detection pass."""

    new: list[DetectedChange] = field(default_factory=list)
    refined: dict[str, DetectedChange] = field(default_factory=dict)
    retracted: list[str] = field(default_factory=list)
    # Triaged changes in view, left as they are: the fresh detection each absorbed, or None
    # when the fresh pass no longer shows it (an untriaged one would be retracted).
    kept: dict[str, DetectedChange | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Runs:
    """A series' runs, oldest first, as detection reads them: keys and values as columns
    (a history is read as arrays, and most runs carry nothing else), and the levels of
    the few runs with replicates or stats, by position."""

    keys: Sequence[str]
    values: Sequence[float]
    richer: Mapping[int, RunLevel] = field(default_factory=dict)

    @classmethod
    def of(cls, observations: "Sequence[Observation] | Runs") -> "Runs":
        if isinstance(observations, Runs):
            return observations
        return cls(
            [o.key for o in observations],
            [o.value for o in observations],
            {
                i: run_level(o.value, o.samples, o.stats)
                for i, o in enumerate(observations)
                if o.samples or o.stats
            },
        )

    def __len__(self) -> int:
        return len(self.keys)

    def since(self, start: int) -> "Runs":
        if start == 0:
            return self
        richer = {i - start: level for i, level in self.richer.items() if i >= start}
        return Runs(self.keys[start:], self.values[start:], richer)

    def levels(self, start: int = 0, stop: int | None = None) -> list[RunLevel]:
        """Each run's level and sampling error (``stats.noise.run_level``)."""
        return [
            level if (level := self.richer.get(i)) is not None else RunLevel(float(self.values[i]))
            for i in range(len(self.keys))[start:stop]
        ]

    def level_values(self) -> list[float]:
        """Each run's level alone: its value unless it has replicates or stats."""
        values = list(map(float, self.values))
        for index, level in self.richer.items():
            values[index] = level.level
        return values


def detect_changes(
    observations: Sequence[Observation] | Runs,
    *,
    higher_is_better: bool,
    min_relative_change: float = MIN_RELATIVE_CHANGE,
    significance: float = SIGNIFICANCE,
    min_runs: int = RANK_RUNS_AFTER,
) -> list[DetectedChange]:
    """Find the level changes in a series, oldest observation first.

    ``min_runs`` runs are needed on each side of a change found by ranks; the
    two-level t-test reports a large step sooner (module docstring).
    """
    runs = Runs.of(observations)
    segmenter = Segmenter(runs.level_values(), min_relative_change, significance, min_runs)
    points = segmenter.refine(segmenter.search())
    newest = points[-1] if points else 0
    short = None
    if len(runs) - newest < SHORT_SEGMENT:  # ranks judge longer segments (short.py)
        short = find_short_change(
            runs.levels(newest),
            newest,
            min_relative_change=min_relative_change,
            significance=significance,
        )
    bounds = [0, *points, *([short.split] if short else []), len(runs)]
    judge = _Judge(runs, higher_is_better, significance)
    changes = []
    for start, split, stop in zip(bounds, bounds[1:], bounds[2:], strict=False):
        if short is not None and split == short.split:
            changes.append(judge.short(runs.keys[split], start, split, stop, short))
        else:
            p_value = segmenter.p_value(start, split, stop)
            before, after = segmenter.median(start, split), segmenter.median(split, stop)
            changes.append(
                judge.ranked(runs.keys[split], (start, split, stop), before, after, p_value)
            )
    return changes


@dataclass(frozen=True)
class _Judge:
    """Turns a split into a DetectedChange with its evidence."""

    runs: Runs
    higher_is_better: bool
    significance: float

    def ranked(
        self,
        key: str,
        bounds: tuple[int, int, int],
        before: float,
        after: float,
        p_value: float,
    ) -> DetectedChange:
        start, split, stop = bounds
        difference = compare_levels(self.runs.levels(start, split), self.runs.levels(split, stop))
        return self._change(key, bounds, before, after, p_value, "rank_sum", difference)

    def short(
        self, key: str, start: int, split: int, stop: int, found: ShortChange
    ) -> DetectedChange:
        difference = found.difference
        test: DetectionTest = "two_level_t" if difference.replicates_used else "student_t"
        change = self._change(
            key,
            (start, split, stop),
            difference.before,
            difference.after,
            found.p_value,
            test,
            difference,
        )
        return replace(change, provisional=found.provisional)

    def _change(
        self,
        key: str,
        bounds: tuple[int, int, int],
        before: float,
        after: float,
        p_value: float,
        test: DetectionTest,
        difference: LevelDifference | None,
    ) -> DetectedChange:
        start, split, stop = bounds
        change = relative(before, after)
        worse = change < 0 if self.higher_is_better else change > 0
        level = 1 - self.significance
        interval = (change, change)
        between = within = None
        if difference is not None and before:
            interval = difference.relative_interval(level, change=change, before=before)
            between = difference.relative_sd(difference.between_variance, before=before)
            if difference.within_variance is not None:
                within = difference.relative_sd(difference.within_variance, before=before)
        evidence = Evidence(
            runs_before=split - start,
            runs_after=stop - split,
            replicates_used=difference is not None
            and difference.replicates_used
            and test != "rank_sum",
            test=test,
            p_value=p_value,
            interval=interval,
            interval_level=level,
            run_to_run_cv=between,
            within_run_cv=within,
        )
        return DetectedChange(
            index=split,
            key=key,
            before=before,
            after=after,
            relative_change=change,
            direction="regression" if worse else "improvement",
            confidence=max(0.0, 1.0 - p_value),
            evidence=evidence,
        )


# --- Reconciling with what is stored ---------------------------------------


def reconcile_changes(
    keys: Sequence[str],
    stored: Sequence[StoredChange],
    detected: Sequence[DetectedChange],
    *,
    tolerance: int = 2,
) -> Reconciliation:
    """Match a fresh detection pass over ``keys`` against the stored changes.

    ``refined`` maps a stored key to the fresh detection that confirms it; keep
    the stored key. A stored change older than ``keys`` is left alone. A
    triaged change is never refined nor retracted, but it absorbs a fresh
    detection so the same change is not raised twice; ``kept`` says what the
    fresh pass found for it, so the caller can tell a maintainer that it moved.
    """
    position = {key: index for index, key in enumerate(keys)}
    visible = [change for change in stored if change.key in position]
    result = Reconciliation()
    pairs = sorted(
        (abs(position[s.key] - d.index), i, j)
        for i, s in enumerate(visible)
        for j, d in enumerate(detected)
        if s.direction == d.direction and abs(position[s.key] - d.index) <= tolerance
    )
    used_stored: set[int] = set()
    used_detected: set[int] = set()
    for _, i, j in pairs:
        if i in used_stored or j in used_detected:
            continue
        used_stored.add(i)
        used_detected.add(j)
        if visible[i].triaged:
            result.kept[visible[i].key] = detected[j]
        else:
            result.refined[visible[i].key] = detected[j]
    result.new.extend(d for j, d in enumerate(detected) if j not in used_detected)
    for i, unmatched in enumerate(visible):
        if i in used_stored:
            continue
        if unmatched.triaged:
            result.kept[unmatched.key] = None
        else:
            result.retracted.append(unmatched.key)
    return result
