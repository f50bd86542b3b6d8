"""Annotations: maintainers' notes on the record, shown on history charts."""

import uuid
from datetime import datetime
from typing import Annotated, Self

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator

from benchboard.bounds import Id64, StoredStr
from benchboard.errors import NO_NUL

Text = Annotated[str, Field(min_length=1, max_length=2_000, pattern=NO_NUL)]


class AnnotationIn(BaseModel):
    """Pinned to exactly one of series_id, suite or hardware; at a time and/or a run."""

    model_config = ConfigDict(extra="forbid")

    text: Text
    series_id: Id64 | None = None
    suite: StoredStr | None = None
    hardware: StoredStr | None = None
    at: AwareDatetime | None = None
    run_id: uuid.UUID | None = None

    @model_validator(mode="after")
    def _one_scope_and_a_place_in_time(self) -> Self:
        scopes = [self.series_id, self.suite, self.hardware]
        if sum(scope is not None for scope in scopes) != 1:
            raise ValueError("give exactly one of series_id, suite, hardware")
        if self.at is None and self.run_id is None:
            raise ValueError("give at (a time) or run_id")
        return self


class AnnotationEdit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: Text | None = None
    at: AwareDatetime | None = None


class AnnotationOut(BaseModel):
    id: int
    text: str
    series_id: int | None
    suite: str | None
    hardware: str | None
    run_id: uuid.UUID | None
    at: datetime
    created_by: str
    created_by_token: int | None = Field(description="the id of the token that wrote it")
    created_at: datetime
    updated_at: datetime
    updated_by: str | None = Field(
        default=None, description="the name of the token that last edited it; null: never edited"
    )
    updated_by_token: int | None = Field(
        default=None, description="the id of the token that last edited it"
    )


class AnnotationList(BaseModel):
    items: list[AnnotationOut]
