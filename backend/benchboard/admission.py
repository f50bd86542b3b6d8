"""Admission control: a crowd waits a moment in memory, and what cannot be served soon is
told to come back, so that no request hangs on the connection pool.

Every request under /api/ (the health check apart) holds one pooled database connection
and one worker thread while it runs. Without a limit, a crowd of 1,024 connections queued
hundreds of requests on SQLAlchemy's pool, each holding a thread for up to the pool's
30 s timeout; health, static files and everything else then waited behind them, for
minutes after the crowd had left (issue 26). Here at most `limit` of them run at once in
this process, sized below the pool so that health and /metrics always find a
connection; the others wait in arrival order, in the event loop (no thread held), and
one that has waited `wait_s` gets a 503 `overloaded` with Retry-After. Static files and
the dashboard's pages never wait here. README "Crowds" has the measurements.
"""

import asyncio

from starlette.types import ASGIApp, Receive, Scope, Send

from benchboard.errors import Overloaded, error_response

# Operational reads that must answer during a crowd: each uses a connection of the pool's
# reserve, which admitted requests never take.
_EXEMPT = ("/api/v1/health",)


class Admission:
    """ASGI middleware: at most `limit` database-bound requests at once, each other waits
    at most `wait_s` for its turn."""

    def __init__(self, app: ASGIApp, *, limit: int, wait_s: float) -> None:
        self.app = app
        self.wait_s = wait_s
        self._slots = asyncio.Semaphore(limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _uses_database(scope):
            await self.app(scope, receive, send)
            return
        try:
            await asyncio.wait_for(self._slots.acquire(), self.wait_s)
        except TimeoutError:
            busy = Overloaded("the service is at capacity; send the request again shortly")
            await error_response(busy)(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self._slots.release()


def _uses_database(scope: Scope) -> bool:
    path = str(scope.get("path", ""))
    return scope["type"] == "http" and path.startswith("/api/") and not path.startswith(_EXEMPT)
