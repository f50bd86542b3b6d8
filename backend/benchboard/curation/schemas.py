"""A series' curation as maintainers set it and readers see it."""

import uuid
from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from benchboard.errors import NO_NUL
from benchboard.vocabulary import CurationKind

Note = Annotated[str, Field(max_length=10_000, pattern=NO_NUL)]


class CurationOut(BaseModel):
    """One mark: who set it, and who undid it (if anyone)."""

    run_id: uuid.UUID
    kind: CurationKind
    note: str | None
    created_by: str
    token_id: int | None = Field(default=None, description="the id of the token that set it")
    created_at: datetime
    removed_by: str | None
    removed_token_id: int | None = Field(
        default=None, description="the id of the token that undid it"
    )
    removed_at: datetime | None


class SeriesCurationOut(BaseModel):
    series_id: int
    outliers: list[uuid.UUID] = Field(
        description="Runs whose result is left out of detection (drawn hollow)"
    )
    baseline_reset: uuid.UUID | None = Field(description="The run detection starts at, if reset")
    record: list[CurationOut] = Field(description="Every mark and its undoing, newest first")


class CurationNote(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: Note | None = None


class BaselineReset(BaseModel):
    """Reset the series' baseline at a run: detection starts there (after an intended change)."""

    model_config = ConfigDict(extra="forbid")

    run_id: uuid.UUID
    note: Note | None = None
