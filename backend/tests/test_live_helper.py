"""The test helpers wait with deadlines: a live service that cannot start fails its test
at once instead of hanging the run."""

import socket
import threading

import pytest
from sqlalchemy import Engine

from benchboard.config import Settings
from tests import live


# uvicorn ends its thread with SystemExit on a failed bind: that is the case under test.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_live_service_that_cannot_bind_fails_fast(
    settings: Settings, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        monkeypatch.setattr(live, "free_port", lambda: taken.getsockname()[1])
        outcome: list[BaseException | None] = []

        def start() -> None:
            try:
                with live.live_service_on(settings, engine):
                    outcome.append(None)
            except BaseException as error:  # what the helper raised, to assert on
                outcome.append(error)

        # On a thread with a deadline of its own: the helper used to wait forever.
        attempt = threading.Thread(target=start, daemon=True)
        attempt.start()
        attempt.join(timeout=30)
    assert not attempt.is_alive(), "live_service_on hung on a port it could not bind"
    assert isinstance(outcome[0], RuntimeError)
