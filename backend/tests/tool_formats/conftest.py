"""The service on a real port, for tests that drive the ingest CLI against it over HTTP."""

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from benchboard.config import Settings
from tests.live import LiveService, live_service_on


@pytest.fixture
def live_service(settings: Settings, engine: Engine) -> Iterator[LiveService]:
    with live_service_on(settings, engine) as live:
        yield live
