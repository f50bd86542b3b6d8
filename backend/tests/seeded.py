"""The seed studies loaded through the upload path, for read tests."""

import pytest
from sqlalchemy.orm import Session

from benchboard.demo import load_demo


@pytest.fixture
def seeded(session: Session) -> None:
    load_demo(session)
    session.commit()
