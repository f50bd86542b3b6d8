"""Dependencies as Annotated aliases, so route signatures read like the contract."""

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from benchboard.caching import conditional_read
from benchboard.config import Settings
from benchboard.db import get_session
from benchboard.errors import Forbidden, Unauthorized
from benchboard.tokens.service import Principal, authenticate
from benchboard.tokens.visibility import Viewer, hide_private_ids, viewer_of

# scope="function": the commit happens before the response is sent, so a 201 means the
# run is stored and readable (the default scope would commit after the response).
SessionDep = Annotated[Session, Depends(get_session, scope="function")]

_bearer = HTTPBearer(auto_error=False, description="A Benchboard API token")


# Dependencies that do no I/O are async: FastAPI runs a sync one in a worker thread, and
# each such hop cost a read ~0.1-0.3 ms.
async def get_app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


SettingsDep = Annotated[Settings, Depends(get_app_settings)]


def _principal(
    session: Session, credentials: HTTPAuthorizationCredentials | None
) -> Principal | None:
    """The token's principal; None without one. A token sent that is not live (unknown,
    revoked) is refused, on reads too: its holder learns at once that it is gone."""
    if credentials is None or credentials.scheme.lower() != "bearer":
        return None
    principal = authenticate(session, credentials.credentials)
    if principal is None:
        raise Unauthorized("the token is not valid (unknown or revoked)")
    return principal


def _require(permission: str):  # type: ignore[no-untyped-def]
    def dependency(
        session: SessionDep,
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    ) -> Principal:
        principal = _principal(session, credentials)
        if principal is None:
            raise Unauthorized("a valid token is required: send 'Authorization: Bearer <token>'")
        if not principal.may(permission):
            raise Forbidden(f"the token {principal.name!r} lacks the '{permission}' scope")
        return principal

    return dependency


def _read_access(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Viewer:
    """Who reads: anonymous readers see public suites; a token also the private suites
    it covers. An answer to a token is never kept nor shared (caching.py). One worker
    thread for all its queries: each hop to a thread and back cost a read more under load
    than the query it ran."""
    principal = _principal(session, credentials)
    if not settings.public_read and principal is None:
        raise Unauthorized("reads need a token on this server (BENCHBOARD_PUBLIC_READ=false)")
    # The first query of an anonymous read: its ETag must not be newer than its answer.
    shared = settings.public_read and principal is None
    private = conditional_read(request, session, public=shared)
    viewer = viewer_of(session, principal, private)
    hide_private_ids(session, viewer, request.path_params, request.query_params)
    return viewer


def _caller(
    session: SessionDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal | None:
    return _principal(session, credentials)


def _operational_read(
    settings: SettingsDep, caller: Annotated[Principal | None, Depends(_caller)]
) -> None:
    if not settings.public_read and caller is None:
        raise Unauthorized("this server's figures need a token (BENCHBOARD_PUBLIC_READ=false)")


# The token of a request, if it sent one (a token that is not live is refused).
CallerDep = Annotated[Principal | None, Depends(_caller)]
# Operational reads (/metrics): a token when reads need one.
OperationalRead = Depends(_operational_read)
UploadToken = Annotated[Principal, Depends(_require("upload"))]
MaintainerToken = Annotated[Principal, Depends(_require("maintain"))]
AdminToken = Annotated[Principal, Depends(_require("admin"))]
ReadAccess = Depends(_read_access)
# A read's viewer, for the routes whose answers name suites (one dependency: FastAPI runs
# it once per request, with ReadAccess).
ViewerDep = Annotated[Viewer, ReadAccess]
