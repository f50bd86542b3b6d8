"""The upload contract v1 (shared/contract/upload-v1.md) and the run read models.

Validation runs in pydantic-core (no Python validators per result) because one
upload may carry 100,000 results.
"""

import uuid
from datetime import datetime
from typing import Annotated, Any, Self

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    field_validator,
    model_validator,
)

from benchboard.bounds import (
    FINITE_MAX,
    INT8_MAX,
    PARAM_INT_MAX,
    SLUG_PATTERN,
    StoredNumber,
    plausible_start,
    storable_text,
)
from benchboard.errors import NO_NUL
from benchboard.series.schemas import ResultIdentity
from benchboard_ingest.gitinfo import has_user_info
from benchboard_ingest.imports.batches import MAX_BATCH_RUNS
from benchboard_ingest.vocabulary import Direction, Mode, UnitName

MAX_RESULTS = 100_000
MAX_SAMPLES = 100_000
MAX_NAME = 200
MAX_TEXT = 2_000
MAX_MAP_KEYS = 100
MAX_PARAMS = 32
LANGUAGE_PATTERN = r"^[a-z0-9][a-z0-9+#._-]{0,49}$"

FiniteNumber = StoredNumber
Count = Annotated[StrictInt, Field(ge=0, le=INT8_MAX)]
Name = Annotated[StrictStr, Field(min_length=1, max_length=MAX_NAME, pattern=NO_NUL)]
Text = Annotated[StrictStr, Field(max_length=MAX_TEXT, pattern=NO_NUL)]
StringMap = Annotated[dict[Name, Text], Field(max_length=MAX_MAP_KEYS)]
# A result's names as published, but without a pattern per string to validate: with it,
# an upload of 100,000 results ran ~700,000 of them (0.6 s of its CPU). A NUL in a JSON
# body can only be the escape \u0000, so one search of the body finds it instead
# (body.refuse_nul_in_results), and only then is the field named.
ResultName = Annotated[
    StrictStr, Field(min_length=1, max_length=MAX_NAME, json_schema_extra={"pattern": NO_NUL})
]
# Params are flat: numbers, strings, booleans (bool first so `true` is not read as 1;
# integers before floats, so that 2**70 + 1 stays exact).
ParamValue = (
    StrictBool
    | Annotated[StrictInt, Field(ge=-PARAM_INT_MAX, le=PARAM_INT_MAX)]
    | FiniteNumber
    | ResultName
)
ParamMap = Annotated[dict[ResultName, ParamValue], Field(max_length=MAX_PARAMS)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GitInfo(Strict):
    repo: Text | None = None
    commit: Annotated[StrictStr, Field(max_length=100, pattern=NO_NUL)] | None = None
    branch: Name | None = None

    @field_validator("repo")
    @classmethod
    def _no_credentials(cls, repo: str | None) -> str | None:
        # Every reader may download a run's upload: a CI clone URL's user info is the
        # job's token (GitLab: `https://gitlab-ci-token:<token>@…`).
        if repo is not None and has_user_info(repo):
            raise ValueError("must not carry user info (a user or token before `@`)")
        return repo


class HardwareDescription(BaseModel):
    """What a machine is: known keys, and further string/number keys, kept as sent."""

    model_config = ConfigDict(extra="allow")

    cpu: Text | None = None
    cores: Count | None = None
    memory_gb: Annotated[FiniteNumber, Field(ge=0)] | None = None
    storage: Text | None = None
    os: Text | None = None

    @model_validator(mode="after")
    def _further_keys_are_short_scalars(self) -> Self:
        extra = self.model_extra or {}
        if len(extra) > MAX_MAP_KEYS:
            raise ValueError(f"at most {MAX_MAP_KEYS} further keys")
        for key, value in extra.items():
            is_number = isinstance(value, int | float) and not isinstance(value, bool)
            if not (is_number or isinstance(value, str)):
                raise ValueError(f"{key}: further hardware keys must be strings or numbers")
            if len(key) > MAX_NAME or (isinstance(value, str) and len(value) > MAX_TEXT):
                raise ValueError(f"{key}: too long")
            for text in (key, value) if isinstance(value, str) else (key,):
                if (problem := storable_text(text)) is not None:
                    raise ValueError(f"{key!r}: {problem}")
            if is_number and not abs(value) <= FINITE_MAX:
                raise ValueError(f"{key}: must be a finite number within ±{FINITE_MAX:g}")
        return self


class HardwareIn(HardwareDescription):
    """`name` identifies the machine; its description is the run's own (the machine's
    shared one is a maintainer's: PUT /api/v1/hardware/{name})."""

    name: Name


class Stats(Strict):
    n: Count | None = None
    min: FiniteNumber | None = None
    max: FiniteNumber | None = None
    mean: FiniteNumber | None = None
    median: FiniteNumber | None = None
    stddev: Annotated[FiniteNumber, Field(ge=0)] | None = None
    p50: FiniteNumber | None = None
    p75: FiniteNumber | None = None
    p90: FiniteNumber | None = None
    p95: FiniteNumber | None = None
    p99: FiniteNumber | None = None
    p999: FiniteNumber | None = None


class ResultUpload(Strict):
    benchmark: ResultName
    params: ParamMap = Field(default_factory=dict)
    language: Annotated[StrictStr, Field(pattern=LANGUAGE_PATTERN)]
    implementation: ResultName | None = None
    mode: Mode | None = None
    variant: ResultName | None = None
    metric: ResultName
    unit: UnitName
    direction: Direction | None = None
    value: FiniteNumber
    stats: Stats | None = None
    samples: Annotated[list[FiniteNumber], Field(max_length=MAX_SAMPLES)] | None = None


class RunUpload(Strict):
    """A run as runners send it: contract v1."""

    id: uuid.UUID | None = None
    suite: Annotated[StrictStr, Field(pattern=SLUG_PATTERN)]
    name: Text | None = None
    started_at: Annotated[AwareDatetime, AfterValidator(plausible_start)]
    source_url: Text | None = None
    git: GitInfo | None = None
    hardware: HardwareIn
    environment: StringMap = Field(default_factory=dict)
    tags: StringMap = Field(default_factory=dict)
    results: Annotated[list[ResultUpload], Field(min_length=1, max_length=MAX_RESULTS)]


class RunBatchUpload(Strict):
    """Many runs in one request (history imports), each exactly as POST /runs takes it,
    at most MAX_BATCH_RESULTS results in all: what one run may cost, no more."""

    runs: Annotated[list[RunUpload], Field(min_length=1, max_length=MAX_BATCH_RUNS)]


class RunCreated(BaseModel):
    id: uuid.UUID
    url: str
    result_count: int


class RunDeleted(BaseModel):
    """What DELETE /runs/{id} removed and re-queued."""

    id: uuid.UUID
    result_count: int
    requeued_series: int = Field(description="series queued for change detection again")
    deleted_series: int = Field(description="series that had no other result, deleted too")


class RunBatchItem(RunCreated):
    created: bool = Field(description="false: the run was stored before (an identical repeat)")


class RunBatchCreated(BaseModel):
    """Each run of the batch in its order, and how many were new."""

    runs: list[RunBatchItem]
    created: int
    existing: int


class RunSummary(BaseModel):
    id: uuid.UUID
    suite: str
    name: str | None
    started_at: datetime
    hardware_name: str
    branch: str = Field(description="git.branch, else the suite's default branch at upload")
    commit: str | None
    result_count: int
    source_url: str | None
    tags: dict[str, str]
    created_at: datetime


class RunPage(BaseModel):
    items: list[RunSummary]
    next_cursor: str | None


class HardwareOut(BaseModel):
    name: str
    info: dict[str, Any]


class ResultOut(ResultIdentity):
    id: int
    series_id: int
    unit: str
    value: float
    value_base: float
    stats: dict[str, float] | None
    sample_count: int


class RunDetail(RunSummary):
    git: dict[str, Any] | None
    environment: dict[str, str]
    hardware: HardwareOut
    results: list[ResultOut]
    detection_pending_series: int = Field(
        description="Series of this run still waiting for change detection"
    )
