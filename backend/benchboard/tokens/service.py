"""API tokens: random secrets, stored as SHA-256, compared in constant time, revocable,
each with a scope and, optionally, the suites it acts on."""

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, or_, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from benchboard.errors import Conflict, Forbidden, NotFound
from benchboard.models import ApiToken
from benchboard.vocabulary import TokenScope

TOKEN_PREFIX = "bb_"  # noqa: S105 - a marker, not a secret
# What a token's suites are: exact suite names, or a prefix ending in `*` (`team-*`).
SUITE_PATTERN = r"^[a-z0-9][a-z0-9._-]{0,99}\*?$"

# What each scope may do. Runners' tokens only upload and maintainers' only triage,
# so a leaked CI token cannot rewrite the record; admins may do everything. Every scope
# reads the private suites it covers.
_GRANTS: dict[str, frozenset[str]] = {
    "read": frozenset({"read"}),
    "upload": frozenset({"read", "upload"}),
    "maintain": frozenset({"read", "maintain"}),
    "admin": frozenset({"read", "upload", "maintain", "admin"}),
}


def pattern_covers(pattern: str, suite: str) -> bool:
    """`name` covers that suite; `prefix-*` every suite starting with `prefix-`."""
    if pattern.endswith("*"):
        return suite.startswith(pattern[:-1])
    return suite == pattern


def _pattern_within(pattern: str, patterns: Sequence[str]) -> bool:
    """Whether every suite `pattern` covers is covered by one of `patterns`."""
    if not pattern.endswith("*"):
        return any(pattern_covers(owner, pattern) for owner in patterns)
    return any(owner.endswith("*") and pattern.startswith(owner[:-1]) for owner in patterns)


@dataclass(frozen=True)
class Principal:
    """Who made a request: the token's id, name, scope and suites (None: every suite)."""

    token_id: int
    name: str
    scope: str
    suites: tuple[str, ...] | None = None

    def may(self, permission: str) -> bool:
        return permission in _GRANTS.get(self.scope, frozenset())

    def covers(self, suite: str) -> bool:
        return self.suites is None or any(pattern_covers(p, suite) for p in self.suites)

    def require_suite(self, suite: str) -> None:
        """Forbidden unless the token acts on `suite` (checked before anything is written)."""
        if not self.covers(suite):
            raise Forbidden(f"the token {self.name!r} may not act on the suite {suite!r}")

    def require_every_suite(self, what: str) -> None:
        """Forbidden unless the token acts on every suite: for what spans suites (a
        machine's annotations and description)."""
        if self.suites is not None:
            raise Forbidden(f"{what} spans suites: only a token for every suite may change it")

    def includes(self, suites: Sequence[str] | None) -> bool:
        """Whether a token limited to `suites` (None: every suite) acts only where this
        one does: what a maintainer may hand out."""
        if self.suites is None:
            return True
        return suites is not None and all(_pattern_within(p, self.suites) for p in suites)


def hash_token(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def issue_token(
    session: Session,
    *,
    name: str,
    scope: TokenScope,
    suites: Sequence[str] | None = None,
    created_by: int | None = None,
) -> tuple[ApiToken, str]:
    """Store a new token; its row and its secret, which is never stored nor shown again."""
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(
        name=name,
        scope=scope,
        suites=list(suites) if suites is not None else None,
        token_hash=hash_token(secret),
        created_by=created_by,
    )
    session.add(token)
    try:
        session.flush()
    except IntegrityError as error:
        raise Conflict(f"a token named {name!r} exists already") from error
    session.refresh(token)
    return token, secret


def create_token(
    session: Session, *, name: str, scope: TokenScope, suites: Sequence[str] | None = None
) -> str:
    """A new token's secret (the CLI's and the tests' way)."""
    return issue_token(session, name=name, scope=scope, suites=suites)[1]


def list_tokens(session: Session) -> list[ApiToken]:
    return list(session.scalars(select(ApiToken).order_by(ApiToken.created_at, ApiToken.id)))


def revoke(session: Session, token: ApiToken, *, by: int | None) -> None:
    """`by`: the id of the token revoking it; None: the CLI on the server."""
    if token.revoked_at is None:
        token.revoked_at = datetime.now(UTC)
        token.revoked_by = by
        session.flush()


def revoke_token(session: Session, *, name: str) -> None:
    token = session.scalar(select(ApiToken).where(ApiToken.name == name))
    if token is None:
        raise NotFound(f"no token named {name!r}")
    revoke(session, token, by=None)


# A minute's resolution: a write per request would cost every read a transaction id
# (and move the data version the public answers are cached under, caching.py).
_USE_IS_STALE = or_(
    ApiToken.last_used_at.is_(None),
    ApiToken.last_used_at < text("now() - interval '1 minute'"),
)


def authenticate(session: Session, secret: str) -> Principal | None:
    """The principal for a live token, or None; records the token's use, at most once a
    minute. Read from the database on every request, never cached: a revoked token's next
    request is refused."""
    candidate = hash_token(secret)
    found = session.execute(
        select(ApiToken, _USE_IS_STALE.label("stale")).where(ApiToken.token_hash == candidate)
    ).one_or_none()
    if found is None:
        return None
    token, stale = found._tuple()
    if token.revoked_at is not None:
        return None
    # The lookup is by hash already; the explicit constant-time check keeps that
    # property even if the lookup ever changes (e.g. to a prefix index).
    if not hmac.compare_digest(token.token_hash, candidate):
        return None
    if stale:  # an UPDATE per request, even one matching no row, cost an upload ~2.5 ms
        session.execute(
            update(ApiToken)
            .where(ApiToken.id == token.id, _USE_IS_STALE)
            .values(last_used_at=func.now())
        )
    suites = tuple(token.suites) if token.suites is not None else None
    return Principal(token_id=token.id, name=token.name, scope=token.scope, suites=suites)
