"""Tokens as the API makes and lists them: never a hash, the secret only once."""

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from benchboard.errors import NO_NUL
from benchboard.tokens.service import SUITE_PATTERN
from benchboard.vocabulary import TokenScope

SuitePattern = Annotated[StrictStr, Field(pattern=SUITE_PATTERN, examples=["team-*"])]


class TokenIn(BaseModel):
    """A new token: its name, what it may do and, optionally, the suites it acts on."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[StrictStr, Field(min_length=1, max_length=200, pattern=NO_NUL)]
    scope: TokenScope
    suites: Annotated[list[SuitePattern], Field(min_length=1, max_length=100)] | None = Field(
        default=None, description="exact names or `prefix-*`; omitted: every suite"
    )


class TokenOut(BaseModel):
    id: int
    name: str
    scope: TokenScope
    suites: list[str] | None
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None
    revoked_by: int | None = Field(
        default=None, description="the id of the token that revoked it; null: the CLI"
    )


class TokenCreated(TokenOut):
    token: str = Field(description="the secret: shown this once, never stored")


class TokenList(BaseModel):
    items: list[TokenOut]
