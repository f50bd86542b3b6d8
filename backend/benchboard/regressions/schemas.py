"""Regressions as readers and maintainers see them, and the triage they send."""

import uuid
from datetime import datetime
from typing import Annotated, Any

from pydantic import AnyHttpUrl, BaseModel, ConfigDict, Field

from benchboard.series.schemas import SeriesIdentity
from benchboard.vocabulary import ChangeDirection, TriageStatus


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
    status: TriageStatus
    note: str | None
    links: list[str]
    updated_at: datetime


class RegressionPage(BaseModel):
    items: list[RegressionOut]
    next_cursor: str | None


class RegressionTriage(BaseModel):
    """Any of status, note, links; what is not sent stays as it is."""

    model_config = ConfigDict(extra="forbid")

    status: TriageStatus | None = None
    note: Annotated[str, Field(max_length=10_000)] | None = None
    links: Annotated[list[AnyHttpUrl], Field(max_length=50)] | None = None


class RegressionEventOut(BaseModel):
    id: int
    actor: str
    at: datetime
    changes: dict[str, Any]


class RegressionHistory(BaseModel):
    items: list[RegressionEventOut]
