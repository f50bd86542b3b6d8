"""HTTP for a machine's shared description: a maintainer's or an admin's to set."""

from typing import Annotated

from fastapi import APIRouter, Path

from benchboard.bounds import BoundedJsonRoute
from benchboard.deps import MaintainerToken, SessionDep
from benchboard.errors import ErrorOut
from benchboard.hardware import service
from benchboard.runs.schemas import HardwareDescription, HardwareOut

router = APIRouter(prefix="/api/v1/hardware", tags=["hardware"], route_class=BoundedJsonRoute)


@router.put("/{name}", responses={code: {"model": ErrorOut} for code in (401, 403, 404, 422)})
def update_hardware(
    name: Annotated[str, Path(min_length=1, max_length=200)],
    description: HardwareDescription,
    session: SessionDep,
    token: MaintainerToken,
) -> HardwareOut:
    """Replace the machine's shared description (what its pages show). Uploads never
    change it; each run keeps the description it was sent. A machine spans suites: the
    token must act on every suite."""
    token.require_every_suite("a machine's description")
    return service.update_hardware(session, name, description, actor=token)
