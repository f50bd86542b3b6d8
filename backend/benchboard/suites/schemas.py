"""Suites as readers see them, and the settings a maintainer sends."""

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictStr

BranchName = Annotated[StrictStr, Field(min_length=1, max_length=200)]


class SuiteOut(BaseModel):
    """A study or suite: what it covers and when it ran (series of its default branch)."""

    suite: str
    title: str | None
    description: str | None
    default_branch: str
    branches: list[str]
    run_count: int
    result_count: int
    series_count: int
    first_started_at: datetime
    last_started_at: datetime
    languages: list[str]
    hardware: list[str]


class SuiteList(BaseModel):
    items: list[SuiteOut]


class BranchOut(BaseModel):
    name: str
    run_count: int
    last_started_at: datetime


class SuiteSettings(BaseModel):
    """A suite's settings, and the branches its runs came from (newest first)."""

    suite: str
    default_branch: str
    branches: list[BranchOut]
    updated_at: datetime


class SuiteUpdate(BaseModel):
    """Any of the settings; what is not sent stays as it is."""

    model_config = ConfigDict(extra="forbid")

    default_branch: BranchName | None = Field(
        default=None,
        description="Where runs without git.branch count from now on, and which branch "
        "default views show. Runs already stored keep the branch they were given.",
    )
