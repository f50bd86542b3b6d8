"""What a failed check means, and so what the worker does with its series.

- `OUTAGE`: the database went away (the connection was lost, refused, or the server shut
  down). Nothing is wrong with the series: the worker reconnects, and the batch it held
  is claimed again, one series at a time, after its lease (queue.claim_batch).
- `RETRY`: the statement lost a race or was cancelled (deadlock, serialization failure,
  lock timeout, statement timeout), or the check raised an error of its own. Retried
  with backoff; after `Retries.max_attempts` the series is marked failing.
- `GIVE_UP`: the series' data meets a limit or is refused (SQLSTATE class 22, data
  exception; 54, program limit exceeded; 53200, out of memory): the same check fails
  the same way, so the series is marked failing at once.
"""

from enum import Enum

import psycopg
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout


class Failure(Enum):
    OUTAGE = "outage"
    RETRY = "retry"
    GIVE_UP = "give_up"


# SQLSTATE classes and codes, from PostgreSQL's errcodes appendix.
_OUTAGE_CLASSES = ("08",)  # connection exception
_OUTAGE_STATES = {
    "57P01",  # admin_shutdown
    "57P02",  # crash_shutdown
    "57P03",  # cannot_connect_now
    "53300",  # too_many_connections
}
_GIVE_UP_CLASSES = ("22", "54")  # data exception, program limit exceeded
_GIVE_UP_STATES = {"53200"}  # out_of_memory: the statement asked for too much


def classify(error: BaseException) -> Failure:
    """Which of the three a check's exception is."""
    if isinstance(error, PoolTimeout):
        return Failure.OUTAGE
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return Failure.OUTAGE
    cause = error.orig if isinstance(error, DBAPIError) else error
    if not isinstance(cause, psycopg.Error):
        return Failure.RETRY
    state = cause.sqlstate
    if state is None:
        # Raised by the driver itself: the connection broke or is closed.
        is_connection = isinstance(cause, psycopg.OperationalError | psycopg.InterfaceError)
        return Failure.OUTAGE if is_connection else Failure.RETRY
    if state.startswith(_OUTAGE_CLASSES) or state in _OUTAGE_STATES:
        return Failure.OUTAGE
    if state.startswith(_GIVE_UP_CLASSES) or state in _GIVE_UP_STATES:
        return Failure.GIVE_UP
    return Failure.RETRY
