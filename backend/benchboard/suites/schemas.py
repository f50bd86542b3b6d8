"""Suites as readers see them, and the settings a maintainer sends."""

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from benchboard.errors import NO_NUL
from benchboard.vocabulary import SuiteVisibility

BranchName = Annotated[StrictStr, Field(min_length=1, max_length=200, pattern=NO_NUL)]
Title = Annotated[StrictStr, Field(min_length=1, max_length=200, pattern=NO_NUL)]
Description = Annotated[StrictStr, Field(min_length=1, max_length=5000, pattern=NO_NUL)]
Author = Annotated[StrictStr, Field(min_length=1, max_length=200, pattern=NO_NUL)]


class StudyLink(BaseModel):
    """A source of the study: the article, its code, the raw data."""

    model_config = ConfigDict(extra="forbid")

    label: Annotated[StrictStr, Field(min_length=1, max_length=200, pattern=NO_NUL)]
    url: Annotated[StrictStr, Field(pattern="^https?://[^\\s\x00]+$", max_length=2000)]


class BranchOut(BaseModel):
    name: str
    run_count: int
    last_started_at: datetime


class SuiteSettings(BaseModel):
    """A suite's settings, and the branches its runs came from (newest first)."""

    suite: str
    default_branch: str
    branches: list[BranchOut]
    title: str | None
    description: str | None
    authors: list[str]
    links: list[StudyLink]
    visibility: SuiteVisibility
    updated_at: datetime


class SuiteUpdate(BaseModel):
    """Any of the settings; what is not sent stays as it is."""

    model_config = ConfigDict(extra="forbid")

    default_branch: BranchName | None = Field(
        default=None,
        description="Where runs without git.branch count from now on, and which branch "
        "default views show. Runs already stored keep the branch they were given.",
    )
    title: Title | None = Field(default=None, description="null clears it")
    description: Description | None = Field(default=None, description="null clears it")
    authors: Annotated[list[Author], Field(max_length=50)] | None = None
    links: Annotated[list[StudyLink], Field(max_length=20)] | None = None
    visibility: SuiteVisibility | None = Field(
        default=None, description="private: only tokens that cover the suite read it"
    )
