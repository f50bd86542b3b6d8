"""A machine's shared description, set by maintainers."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from benchboard.errors import NotFound
from benchboard.models import Hardware
from benchboard.runs.schemas import HardwareDescription, HardwareOut
from benchboard.tokens.service import Principal


def update_hardware(
    session: Session, name: str, description: HardwareDescription, *, actor: Principal
) -> HardwareOut:
    machine = session.scalar(select(Hardware).where(Hardware.name == name).with_for_update())
    if machine is None:
        raise NotFound(f"no machine named {name!r}")
    machine.info = description.model_dump(exclude_none=True)
    machine.updated_by = actor.name
    machine.updated_token_id = actor.token_id
    session.flush()
    return HardwareOut(name=machine.name, info=machine.info)
