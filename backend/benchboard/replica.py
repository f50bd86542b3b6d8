"""Reads from a streaming replica (DATABASE_READ_URL), writes to the primary.

Public reads (anonymous GET and HEAD under /api/, the health check apart) run on the replica, so
read capacity grows apart from the writer. A replica is a little behind: an answer of
404 (what was just written is not there yet: the URL in a 201) or of 5xx (the replica
is down) is not sent; the same request runs again on the primary. So a URL the service
gave out never answers 404, and a replica outage costs only speed. Lists may show a
just-uploaded run a moment later than the primary would.
"""

from starlette.types import ASGIApp, Message, Receive, Scope, Send

DATABASE_KEY = "benchboard.database"  # in the ASGI scope: "replica" routes the session
REPLICA = "replica"
_PRIMARY_PATHS = ("/api/v1/health",)


def reads_replica(scope: Scope) -> bool:
    return scope.get(DATABASE_KEY) == REPLICA


class ReplicaReads:
    """ASGI middleware: public reads on the replica, retried on the primary as above."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _public_read(scope):
            await self.app(scope, receive, send)
            return
        request: Message | None = await receive()  # a GET has no body: one message

        async def replay() -> Message:
            nonlocal request
            if request is not None:
                message, request = request, None
                return message
            return await receive()

        attempt = _FirstAttempt(send)
        try:
            await self.app({**scope, DATABASE_KEY: REPLICA}, replay, attempt.send)
        except Exception:
            if attempt.started:
                raise
            attempt.discarded = True  # nothing sent yet: the primary answers instead
        if attempt.discarded:
            request = {"type": "http.request", "body": b"", "more_body": False}
            await self.app(scope, replay, send)


class _FirstAttempt:
    """Holds back the response start; drops the whole response if it is 404 or 5xx."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.discarded = False
        self.started = False

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            status = int(message["status"])
            self.discarded = status == 404 or status >= 500
        if not self.discarded:
            self.started = True
            await self._send(message)


def _public_read(scope: Scope) -> bool:
    """An anonymous read: one with a token runs on the primary, which knows at once that
    a token was revoked (and records its use)."""
    path = str(scope.get("path", ""))
    return (
        scope["type"] == "http"
        and scope.get("method") in ("GET", "HEAD")
        and path.startswith("/api/")
        and not path.startswith(_PRIMARY_PATHS)
        and not any(name == b"authorization" for name, _ in scope.get("headers", ()))
    )
