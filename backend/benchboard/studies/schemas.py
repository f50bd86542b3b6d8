"""The read models of studies: the list on the home page and one study's page."""

from datetime import datetime

from pydantic import BaseModel, Field

from benchboard.findings.schemas import FindingOut
from benchboard.runs.schemas import HardwareOut, RunSummary
from benchboard.suites.schemas import StudyLink


class SuiteOut(BaseModel):
    """A study or suite: what it covers and when it ran (series of its default branch)."""

    suite: str
    title: str | None = Field(
        description="the maintainer's title, else what its runs' names share, else the "
        "name of its only run"
    )
    description: str | None
    authors: list[str]
    first_finding: FindingOut | None
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


class StudyWorkload(BaseModel):
    """A benchmark and metric of the study, with how many series measure it."""

    benchmark: str
    metric: str
    series_count: int


class Study(BaseModel):
    """Everything a study's page shows: what the maintainer says, the machines in full,
    the runs (with their `date_estimated` and `date_basis` tags), the workloads, the
    pinned findings."""

    suite: str
    title: str | None
    description: str | None
    authors: list[str]
    links: list[StudyLink]
    default_branch: str
    hardware: list[HardwareOut]
    runs: list[RunSummary]
    workloads: list[StudyWorkload]
    findings: list[FindingOut]
