"""What POST /api/v1/ingest/{format} answers: the stored run, and what the input held
that became no result (a benchmark that failed in the tracker that recorded it)."""

from pydantic import BaseModel, Field

from benchboard.runs.schemas import RunCreated


class SkippedItem(BaseModel):
    item: str
    reason: str


class ToolRunCreated(RunCreated):
    skipped: list[SkippedItem] = Field(default_factory=list)
