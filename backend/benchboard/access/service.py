"""Tokens over the API: who manages which tokens. An admin every token; a maintainer the
read, upload and maintain tokens that act only within its own suites."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from benchboard.access.schemas import TokenCreated, TokenIn, TokenList, TokenOut
from benchboard.errors import Forbidden, NotFound
from benchboard.models import ApiToken
from benchboard.tokens.service import Principal, issue_token, list_tokens, revoke


def _manages(actor: Principal, token: ApiToken) -> bool:
    if actor.may("admin"):
        return True
    return token.scope != "admin" and actor.includes(token.suites)


def _out(token: ApiToken) -> TokenOut:
    return TokenOut.model_validate(token, from_attributes=True)


def create(session: Session, given: TokenIn, *, actor: Principal) -> TokenCreated:
    if not actor.may("admin"):
        if given.scope == "admin":
            raise Forbidden("only an admin token makes admin tokens")
        if not actor.includes(given.suites):
            mine = ", ".join(actor.suites or ())
            raise Forbidden(f"a maintainer's token may only make tokens within its suites ({mine})")
    token, secret = issue_token(
        session, name=given.name, scope=given.scope, suites=given.suites, created_by=actor.token_id
    )
    return TokenCreated(**_out(token).model_dump(), token=secret)


def list_managed(session: Session, *, actor: Principal) -> TokenList:
    return TokenList(items=[_out(t) for t in list_tokens(session) if _manages(actor, t)])


def revoke_managed(session: Session, token_id: int, *, actor: Principal) -> None:
    """A token the actor does not manage is answered as missing: its name stays private."""
    token = session.scalar(select(ApiToken).where(ApiToken.id == token_id).with_for_update())
    if token is None or not _manages(actor, token):
        raise NotFound(f"no token {token_id}")
    revoke(session, token, by=actor.token_id)
