"""Alert groups as readers see them, and what maintainers send to triage or split them."""

from datetime import datetime
from typing import Annotated, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from benchboard.bounds import Id64
from benchboard.errors import NO_NUL
from benchboard.regressions.schemas import RegressionOut
from benchboard.vocabulary import AlertCause, ChangeDirection, TriageStatus


class AlertGroupOut(BaseModel):
    """The changes of one cause in a suite (pipeline/grouping.py), summed up."""

    id: int
    suite: str
    cause: AlertCause
    commit: str | None = Field(description="The git commit all its changes were found at")
    created_at: datetime
    started_at: datetime = Field(description="When the newest run with one of its changes ran")
    changes: int = Field(description="Its visible (not retracted) changes")
    by_direction: dict[ChangeDirection, int]
    by_status: dict[TriageStatus, int]
    machines: list[str]
    branches: list[str]
    worst: RegressionOut = Field(description="Its largest regression, else largest improvement")


class AlertGroupPage(BaseModel):
    items: list[AlertGroupOut]
    next_cursor: str | None


class AlertGroupDetail(AlertGroupOut):
    members: list[RegressionOut] = Field(
        description="Every change with its evidence: regressions first, largest first"
    )


class AlertGroupMove(BaseModel):
    """Where a change goes: another group of its suite, or (null) a group of its own."""

    model_config = ConfigDict(extra="forbid")

    group_id: Id64 | None


class NotificationTargetIn(BaseModel):
    """A new target by its `url`, or one the suite has by its `id` (its URL kept: a
    reader only ever sees it masked, so cannot send it back)."""

    model_config = ConfigDict(extra="forbid")

    url: Annotated[str, Field(min_length=1, max_length=2000, pattern=NO_NUL)] | None = Field(
        default=None,
        description="An Apprise URL: slack://…, mailto://…, json://…, msteams://… (see"
        " https://github.com/caronc/apprise/wiki). Never shown back in full.",
    )
    id: Id64 | None = Field(default=None, description="A target the suite has, its URL kept")
    events: Annotated[list[ChangeDirection], Field(min_length=1, max_length=2)] = Field(
        default=["regression"], description="Which changes it hears of"
    )
    min_change: Annotated[float, Field(ge=0, le=100)] = Field(
        default=0.0, description="The smallest relative change worth a message (0.05: 5 %)"
    )

    @model_validator(mode="after")
    def _a_url_or_an_id(self) -> Self:
        if (self.url is None) == (self.id is None):
            raise ValueError("give exactly one of url (a new target) or id (one the suite has)")
        return self


class NotificationTargetOut(BaseModel):
    id: int
    url: str = Field(description="The URL with its secrets masked")
    events: list[ChangeDirection]
    min_change: float


class NotificationSettings(BaseModel):
    """Where a suite's alert groups are announced: one message per group and target."""

    model_config = ConfigDict(extra="forbid")

    targets: Annotated[list[NotificationTargetIn], Field(max_length=20)]


class NotificationSettingsOut(BaseModel):
    targets: list[NotificationTargetOut]


class TriageHealth(BaseModel):
    """Whether triage keeps up (Perfherder holds sheriffs to 80 % of alerts within 3 days)."""

    triaged_changes: int = Field(description="Changes a maintainer has given a status")
    median_time_to_triage_s: float | None = Field(
        description="From detection to a change's first status, median, seconds"
    )
    triaged_within_share: float | None = Field(
        description="Of the changes triaged, the share triaged within within_s of detection"
    )
    within_s: float = Field(description="The target: 3 days")
    untriaged_groups: int
    oldest_untriaged_group_at: datetime | None = Field(
        description="When the oldest group with an untriaged change was created"
    )
