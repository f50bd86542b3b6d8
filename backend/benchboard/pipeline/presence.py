"""A worker's lease on its claims: a session advisory lock held on its own connection.

A claim counts only while its worker holds this lock (queue.claim_batch reads pg_locks),
so a worker killed mid-batch (SIGKILL, a lost machine) gives its batch back when
PostgreSQL drops the connection, once the claim's lease (with backoff) runs out. The
same connection LISTENs, so an upload wakes it.
"""

import random

import psycopg

from benchboard.database_server import libpq_url
from benchboard.pipeline import queue


class Presence:
    """The worker's own connection: its advisory lock (its claims' validity) and LISTEN."""

    def __init__(self, database_url: str) -> None:
        self.connection = psycopg.connect(
            libpq_url(database_url), autocommit=True, application_name="benchboard-worker"
        )
        self.connection.execute(f"LISTEN {queue.CHANNEL}")
        self.worker_id = self._take_an_id()

    def _take_an_id(self) -> int:
        while True:
            candidate = random.randint(1, 2**31 - 1)
            taken = self.connection.execute(
                "SELECT pg_try_advisory_lock(%s, %s)", (queue.WORKER_LOCK_CLASS, candidate)
            ).fetchone()
            if taken and taken[0]:
                return candidate

    def wait(self, seconds: float) -> bool:
        """Until a NOTIFY arrives (True) or `seconds` pass (False)."""
        return any(True for _ in self.connection.notifies(timeout=seconds, stop_after=1))

    def close(self) -> None:
        self.connection.close()
