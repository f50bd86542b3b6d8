"""The dashboard served as a production web app: precompressed files chosen by
Accept-Encoding, caching by whether a name is content-hashed, and security headers on
every response.

`vite build` writes each text file with `.br` and `.gz` beside it (vite.config.ts), so
nothing is compressed per request; JSON answers are compressed on the fly (main.py).
"""

import mimetypes
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from benchboard.errors import NotFound

# Vite names what it builds into assets/ by content hash: a new build, a new name.
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# Preferred first; each with the suffix of its precompressed file.
PRECOMPRESSED = (("br", ".br"), ("gzip", ".gz"))

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
)


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every HTTP response, API and dashboard alike."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def accepted_encodings(header: str) -> set[str]:
    """The codings an Accept-Encoding header allows (`q=0` refuses one)."""
    accepted = set()
    for part in header.lower().split(","):
        name, _, params = part.strip().partition(";")
        quality = params.strip().removeprefix("q=")
        if name and not (params and _is_zero(quality)):
            accepted.add(name.strip())
    return accepted


def _is_zero(quality: str) -> bool:
    try:
        return float(quality) == 0
    except ValueError:
        return False


def static_file(request: Request, path: Path, *, cache_control: str) -> FileResponse:
    """`path`, or its precompressed twin when the client takes that coding."""
    headers = {"Cache-Control": cache_control, "Vary": "Accept-Encoding"}
    accepted = accepted_encodings(request.headers.get("accept-encoding", ""))
    for encoding, suffix in PRECOMPRESSED:
        twin = path.with_name(path.name + suffix)
        if encoding in accepted and twin.is_file():
            headers["Content-Encoding"] = encoding
            # The type is the original's; FileResponse would guess from the twin's suffix.
            return FileResponse(twin, headers=headers, media_type=_media_type(path))
    return FileResponse(path, headers=headers, media_type=_media_type(path))


def _media_type(path: Path) -> str | None:
    guessed, _ = mimetypes.guess_type(path.name)
    return guessed


def serve_dashboard(app: FastAPI, static_dir: Path) -> None:
    """The built front end at `/` (client-side routes fall back to index.html), its
    hashed assets under /assets, and the bundled API viewer at /docs."""
    root = static_dir.resolve()
    index = root / "index.html"

    def built(relative: str) -> Path | None:
        candidate = (root / relative).resolve()
        if relative and candidate.is_file() and candidate.is_relative_to(root):
            return candidate
        return None

    @app.get("/assets/{name:path}", include_in_schema=False)
    def get_asset(name: str, request: Request) -> FileResponse:
        found = built(f"assets/{name}")
        if found is None:
            raise NotFound(f"no asset {name}")
        return static_file(request, found, cache_control=IMMUTABLE)

    @app.get("/docs", include_in_schema=False)
    def get_api_docs(request: Request) -> FileResponse:
        found = built("docs/index.html")
        if found is None:
            raise NotFound("the API viewer is not built: run `make run` (it builds frontend/)")
        return static_file(request, found, cache_control=REVALIDATE)

    @app.get("/{path:path}", include_in_schema=False)
    def get_dashboard(path: str, request: Request) -> FileResponse:
        if path.startswith("api/"):
            raise NotFound(f"no API route /{path}")
        found = built(path)
        if found is not None:
            return static_file(request, found, cache_control=REVALIDATE)
        if not index.is_file():
            raise NotFound("the dashboard is not built: run `make run` (it builds frontend/)")
        return static_file(request, index, cache_control=REVALIDATE)
