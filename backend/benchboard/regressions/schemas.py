"""Regressions as readers and maintainers see them, and the triage they send."""

import uuid
from datetime import datetime
from typing import Annotated

from pydantic import AnyHttpUrl, BaseModel, ConfigDict, Field

from benchboard.detection.thresholds import sides_needed_text
from benchboard.errors import NO_NUL
from benchboard.series.schemas import SeriesIdentity
from benchboard.vocabulary import (
    ChangeDirection,
    DeliveryState,
    DetectionReadiness,
    DetectionTest,
    TriageStatus,
)


class DetectionEvidence(BaseModel):
    """What a detected change rests on (detection.detect.Evidence)."""

    runs_before: int = Field(description="Runs analysed before the change")
    runs_after: int = Field(description="Runs analysed after the change")
    replicates_used: bool = Field(
        description="Whether the runs' replicates (their sampling error) entered the test"
    )
    test: DetectionTest
    p_value: float | None = Field(description="Adjusted for the splits tried")
    interval_low: float | None = Field(
        description="Interval of the relative change, at interval_level: low end"
    )
    interval_high: float | None
    interval_level: float
    run_to_run_cv: float | None = Field(
        description="Between-run standard deviation relative to the level before"
    )
    within_run_cv: float | None = Field(
        description="Standard error of one run's level from its replicates, relative"
    )


class RegressionOut(BaseModel):
    id: int
    series: SeriesIdentity
    run_id: uuid.UUID
    started_at: datetime
    direction: ChangeDirection
    relative_change: float
    before_base: float
    after_base: float
    confidence: float
    provisional: bool = Field(
        description="Found on one run after the change (its replicates): until a second run"
        " confirms it"
    )
    evidence: DetectionEvidence | None = Field(description="Null on changes stored before 2026-11")
    status: TriageStatus
    note: str | None
    links: list[str]
    group_id: int | None = Field(
        description="Its alert group: the changes of the same cause (GET /api/v1/alert-groups/{id})"
    )
    updated_at: datetime


class RegressionPage(BaseModel):
    items: list[RegressionOut]
    next_cursor: str | None
    detection_pending_series: int = Field(
        description="Series matching the filters that still wait for change detection:"
        " this list may still grow or change."
    )
    history_support: "HistorySupport | None" = Field(
        description="On an empty first page: whether the matching series have enough runs"
        " for detection at all"
    )


class HistorySupport(BaseModel):
    """Why a list of changes may be empty: series too short for detection to judge."""

    series: int = Field(description="Series matching the filters (default branch)")
    short_series: int = Field(
        description="Of those, series whose detection state is not_enough_history: fewer runs"
        f" since the last change or baseline reset than a change needs ({sides_needed_text()}),"
        " or a possible step with too few runs on one side"
    )

    text: str


class RegressionTriage(BaseModel):
    """Any of status, note, links; what is not sent stays as it is."""

    model_config = ConfigDict(extra="forbid")

    status: TriageStatus | None = Field(
        default=None, description="null is refused (422): a change always has a status"
    )
    note: Annotated[str, Field(max_length=10_000, pattern=NO_NUL)] | None = Field(
        default=None, description="null clears it"
    )
    links: Annotated[list[AnyHttpUrl], Field(max_length=50)] | None = Field(
        default=None, description="null clears them, as [] does"
    )


class DetectedEvent(BaseModel):
    """The detector's finding when it stored the change."""

    # Fields in jsonb's key order (shorter names first), the order they are read back in.
    confidence: float
    provisional: bool
    relative_change: float


class EventChanges(BaseModel):
    """What one audit event changed: each field as [before, after], or the detector's
    finding. Only the fields the event changed are present: it is stored and sent with
    `exclude_unset`. The detector (pipeline/changes.py) and triage (service.py) both write
    through this model."""

    # Fields in jsonb's key order (shorter names first), the order they are read back in.
    note: tuple[str | None, str | None] | None = None
    group: tuple[int | None, int] | None = Field(
        default=None, description="A maintainer moved it to another alert group: [from, to]"
    )
    links: tuple[list[str], list[str]] | None = None
    moved: tuple[float | None, float | None] | None = Field(
        default=None,
        description="New data moved a change a maintainer had triaged, which keeps its"
        " triage and figures: its relative change as last reported, and as the detector"
        " finds it now (null: not shown by the data)",
    )
    status: tuple[TriageStatus, TriageStatus] | None = None
    detected: DetectedEvent | None = None
    retracted: tuple[bool, bool] | None = None
    provisional: tuple[bool, bool] | None = None


class RegressionEventOut(BaseModel):
    id: int
    actor: str
    token_id: int | None = Field(
        description="the token that made the change (null: the detector or the CLI)"
    )
    at: datetime
    changes: EventChanges


class RegressionHistory(BaseModel):
    items: list[RegressionEventOut]


class WebhookDeliveryOut(BaseModel):
    """One announcement of a new regression and every attempt to send it."""

    id: int
    regression_id: int
    event: str
    state: DeliveryState
    created_at: datetime
    attempts: int
    last_attempt_at: datetime | None
    last_status: int | None = Field(description="HTTP status of the last attempt, if any")
    last_error: str | None
    next_attempt_at: datetime | None = Field(description="When a pending delivery is retried")
    delivered_at: datetime | None


class WebhookDeliveryPage(BaseModel):
    items: list[WebhookDeliveryOut]


class PossibleStep(BaseModel):
    """The newest runs stand apart from the earlier ones, with too few runs on one side
    for detection to judge (detection.state)."""

    run_id: uuid.UUID = Field(description="The first run after the possible step")
    run_number: int = Field(description="Its place in the runs analysed, from 1")
    relative_change: float = Field(description="Median after over median before, minus 1")
    runs_before: int
    runs_after: int
    more_runs_before: int = Field(
        description="Runs before it that detection would need: later runs cannot add them,"
        " so the step will not be reported"
    )
    more_runs_after: int = Field(description="Runs after it still needed to judge it")


class CheckFailure(BaseModel):
    """The worker's last check of the series failed (pipeline/failures.py)."""

    failing: bool = Field(
        description="Marked failing: skipped until new data or a maintainer's retry"
        " (POST /api/v1/series/{series_id}/detection/retry); else retried with backoff"
    )
    failed_at: datetime | None = Field(description="When it was marked failing")
    attempts: int = Field(description="Checks tried since the last one that succeeded")
    error: str | None = Field(description="The last failure, as the worker saw it")


class SeriesDetection(BaseModel):
    """What change detection can see in a series now (detection.state)."""

    series_id: int
    readiness: DetectionReadiness
    runs_analysed: int = Field(description="Runs detection analyses (since a baseline reset)")
    runs_at_level: int = Field(description="Of those, the runs since the last change found")
    replicates: bool = Field(description="Whether those runs carry replicates")
    within_run_cv: float | None = Field(
        description="Standard error of one run's level from its replicates, relative"
    )
    run_to_run_cv: float | None = Field(description="Between-run standard deviation, relative")
    smallest_detectable_change: float | None = Field(
        description="About the smallest relative step reported runs_after_change runs after it"
    )
    runs_needed: int = Field(
        description="More runs needed before a change can be judged: at the current level for a"
        " baseline, or on the short sides of possible_step"
    )
    runs_after_change: int = Field(description="Runs after a step before it is reported")
    possible_step: PossibleStep | None = Field(
        description="A step detection cannot judge yet (readiness not_enough_history)"
    )
    baseline_reset: bool = Field(description="Analysis starts at a change marked expected")
    check_failure: CheckFailure | None = Field(
        default=None, description="Set while the worker's checks of the series fail"
    )
    text: str = Field(description="The state in words")


class ContextPoint(BaseModel):
    """One run's level of the changed series, in its base unit."""

    run_id: uuid.UUID
    started_at: datetime
    value_base: float
    samples_base: list[float] | None = Field(
        description="The run's replicates in the base unit, where it reported them"
    )
    commit: str | None


class LevelSpread(BaseModel):
    """How one side's run levels spread (base unit): count and five-number summary."""

    count: int
    min: float
    q1: float
    median: float
    q3: float
    max: float


class RegressionContext(BaseModel):
    """The runs around a detected change, for its chart."""

    before: list[ContextPoint] = Field(description="Runs before the change, in time order")
    after: list[ContextPoint] = Field(
        description="The run the change was found at, then later runs, in time order"
    )
    before_spread: LevelSpread | None = Field(
        description="Spread of the runs before, less those marked outliers (null: none left)"
    )
    after_spread: LevelSpread | None = Field(
        description="Spread of the runs after, less those marked outliers (null: none left)"
    )
    previous_run_id: uuid.UUID | None = Field(
        description="The series' last run before the change: compare it with the change's run"
    )
    commit_before: str | None = Field(description="git commit of the last run before the change")
    commit_after: str | None = Field(description="git commit of the run the change was found at")
