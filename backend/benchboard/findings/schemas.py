"""Findings as a maintainer pins them and as readers read them."""

import uuid
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from benchboard.bounds import Id64
from benchboard.errors import NO_NUL
from benchboard.series.schemas import RatioIntervalOut
from benchboard_ingest.vocabulary import Direction

MAX_FINDINGS = 50
Label = Annotated[StrictStr, Field(min_length=1, max_length=80, pattern=NO_NUL)]
Context = Annotated[StrictStr, Field(min_length=1, max_length=200, pattern=NO_NUL)]
Note = Annotated[StrictStr, Field(min_length=1, max_length=1000, pattern=NO_NUL)]


class FindingSideIn(BaseModel):
    """One result of the ratio: a series' value in one run."""

    model_config = ConfigDict(extra="forbid")

    run_id: uuid.UUID
    series_id: Id64
    label: Label = Field(description='what readers call this side: "async", "Go net/http"')


class FindingIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    numerator: FindingSideIn
    denominator: FindingSideIn
    context: Annotated[StrictStr, Field(min_length=1, max_length=200, pattern=NO_NUL)] | None = (
        Field(default=None, description='ends the sentence: "for 10,000 tiny writes"')
    )
    note: Note | None = Field(
        default=None, description="where the figure comes from, what the source says"
    )


class FindingsUpdate(BaseModel):
    """The study's findings, in the order readers see them; replaces the ones pinned."""

    model_config = ConfigDict(extra="forbid")

    findings: Annotated[list[FindingIn], Field(max_length=MAX_FINDINGS)]


Verdict = Literal["faster", "slower", "more", "fewer", "same"]


class FindingSide(BaseModel):
    label: str
    run_id: uuid.UUID
    run_name: str | None
    series_id: int
    benchmark: str
    params: dict[str, Any]
    language: str
    implementation: str | None
    mode: str | None
    variant: str | None
    hardware: str
    metric: str
    value: float
    unit: str
    value_base: float
    stats: dict[str, float] | None


class FindingOut(BaseModel):
    """numerator / denominator in one base unit, worded by the metric's direction."""

    id: int
    suite: str
    text: str = Field(description='"async 2.09× slower than sync for 10,000 tiny writes"')
    ratio: float
    factor: float = Field(description="the factor the text states, ≥ 1")
    verdict: Verdict
    interval: RatioIntervalOut | None = Field(
        description="95% interval where the sides carry replicates, else the range their "
        "reported min/max allow"
    )
    difference_base: float = Field(description="numerator − denominator, in base_unit")
    base_unit: str
    direction: Direction
    context: str | None
    note: str | None
    numerator: FindingSide
    denominator: FindingSide


class FindingList(BaseModel):
    items: list[FindingOut]
