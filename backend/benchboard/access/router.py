"""HTTP for tokens: admins manage all; a maintainer the tokens of its own suites."""

from fastapi import APIRouter, Response

from benchboard.access import service
from benchboard.access.schemas import TokenCreated, TokenIn, TokenList
from benchboard.bounds import BoundedJsonRoute, Id64
from benchboard.deps import MaintainerToken, SessionDep
from benchboard.errors import ErrorOut

router = APIRouter(prefix="/api/v1/tokens", tags=["tokens"], route_class=BoundedJsonRoute)
_ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorOut} for code in (401, 403, 404, 409, 422)
}


@router.post("", status_code=201, responses=_ERRORS)
def create_api_token(given: TokenIn, session: SessionDep, token: MaintainerToken) -> TokenCreated:
    """Make a token; its secret is in `token`, shown this once. A maintainer may make
    read, upload and maintain tokens limited to its own suites."""
    return service.create(session, given, actor=token)


@router.get("", responses=_ERRORS)
def list_api_tokens(session: SessionDep, token: MaintainerToken) -> TokenList:
    """The tokens this token manages, with when each was last used; never a secret."""
    return service.list_managed(session, actor=token)


@router.delete("/{token_id}", status_code=204, responses=_ERRORS)
def revoke_api_token(token_id: Id64, session: SessionDep, token: MaintainerToken) -> Response:
    """Revoke a token: its next request is refused (401)."""
    service.revoke_managed(session, token_id, actor=token)
    return Response(status_code=204)
