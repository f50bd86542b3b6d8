"""API tokens: random secrets, stored as SHA-256, compared in constant time, revocable."""

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from benchboard.errors import Conflict, NotFound
from benchboard.models import ApiToken
from benchboard.vocabulary import TokenScope

TOKEN_PREFIX = "bb_"  # noqa: S105 - a marker, not a secret

# What each scope may do. Runners' tokens only upload and maintainers' only triage,
# so a leaked CI token cannot rewrite the record; admins may do everything.
_GRANTS: dict[str, frozenset[str]] = {
    "upload": frozenset({"upload"}),
    "maintain": frozenset({"maintain"}),
    "admin": frozenset({"upload", "maintain", "admin"}),
}


@dataclass(frozen=True)
class Principal:
    """Who made a request: the token's id, name and scope."""

    token_id: int
    name: str
    scope: str

    def may(self, permission: str) -> bool:
        return permission in _GRANTS.get(self.scope, frozenset())


def hash_token(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def create_token(session: Session, *, name: str, scope: TokenScope) -> str:
    """Store a new token and return its secret, which is never stored nor shown again."""
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    session.add(ApiToken(name=name, scope=scope, token_hash=hash_token(secret)))
    try:
        session.flush()
    except IntegrityError as error:
        raise Conflict(f"a token named {name!r} exists already") from error
    return secret


def list_tokens(session: Session) -> list[ApiToken]:
    return list(session.scalars(select(ApiToken).order_by(ApiToken.created_at)))


def revoke_token(session: Session, *, name: str) -> None:
    token = session.scalar(select(ApiToken).where(ApiToken.name == name))
    if token is None:
        raise NotFound(f"no token named {name!r}")
    if token.revoked_at is None:
        token.revoked_at = datetime.now(UTC)
        session.flush()


def authenticate(session: Session, secret: str) -> Principal | None:
    """The principal for a live token, or None."""
    candidate = hash_token(secret)
    token = session.scalar(select(ApiToken).where(ApiToken.token_hash == candidate))
    if token is None or token.revoked_at is not None:
        return None
    # The lookup is by hash already; the explicit constant-time check keeps that
    # property even if the lookup ever changes (e.g. to a prefix index).
    if not hmac.compare_digest(token.token_hash, candidate):
        return None
    return Principal(token_id=token.id, name=token.name, scope=token.scope)
