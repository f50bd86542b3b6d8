"""HTTP caching of reads: a strong ETag from the data's version, 304 on If-None-Match,
and Cache-Control that lets a proxy or CDN in front absorb a crowd.

**The version.** Every read answer is a function of the committed data (and of this
code): no public read depends on the clock. PostgreSQL's snapshot,
`pg_current_snapshot()` (the oldest running transaction, the next transaction id and
those in progress), changes exactly when a write commits or begins anywhere on the
server, and two equal snapshots see the same data. Its hash, with a digest of this
package's source and of the dashboard's index.html (a deploy that changes an answer's
shape, or a build that renames the scripts a page loads, moves every tag), is the ETag
of every public read, the sharing pages (publication/pages.py) included: one trivial
query per request instead of a version per endpoint (suite totals, history versions,
annotation times…), which each new endpoint would have to get right. It moves with any
write, so an upload to one suite revalidates every cached answer: a published study is
read far more than written to.

**Soundness** rests on reading the version before anything else of the answer
(READ COMMITTED takes a snapshot per statement): an answer is then never older than its
ETag, only newer, which costs one needless 200 at worst, never a stale 304.
`conditional_read` runs in ReadAccess, a route's first dependency (a sharing page calls it
first itself).

**Representations.** JSON is compressed after the route (main.py), per Accept-Encoding;
a strong ETag names one byte sequence, so the coding is appended (`"…-zstd"`), as
Apache does, and If-None-Match compares the version part only: any coding of the same
version is still current.

**Kept answers.** The answer of a public read is kept in this process under its version
and URL (ReadCache, at most BENCHBOARD_READ_CACHE_MB): while nothing is written, the
same read is its version query alone. A study's page read 67 times a second built anew
and 985 times a second answered 304 (bench/README.md, read_load.py); a kept answer costs about a 304
plus its compression. Any write moves the version, and old entries age out.

**Kept answers skip the queue.** A reader's GET with no token, whose answer is kept
under the current version, is served before admission control (ServeKept): it needs no
turn, no worker thread and no pooled connection of its own. Its version still comes from
a query that starts after it arrived, so it is never older than a write the reader saw
commit; concurrent requests share that query (VersionClock), one at a time per process.
So a crowd on a published study is served from memory while the database's turns go to
the reads that need them (bench/README.md, read_load.py). After a write, the first request
of a URL builds its answer anew and the others of that URL wait for it (at most a turn's
wait, BENCHBOARD_REQUEST_WAIT_S) rather than each asking for a turn to build it too.

**Private answers.** A read that needs a token (BENCHBOARD_PUBLIC_READ=false; private
suites later) is `private, no-store` and gets no ETag: no shared cache may keep it.
"""

import asyncio
import hashlib
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.concurrency import run_in_threadpool
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from benchboard.config import Settings

# Readers see an upload within 5 s; a cache may answer from its copy for 30 s more while
# it revalidates in the background (a 304 when nothing changed).
PUBLIC = "public, max-age=5, stale-while-revalidate=30"
PRIVATE = "private, no-store"
_POLICY_KEY = "benchboard.cache"  # in the ASGI scope: the ReadPolicy of this request
_KEPT_KEY = "benchboard.kept"  # in the ASGI scope: answered from the ReadCache


@dataclass
class ReadPolicy:
    """What the route decided about caching its answer; read by CacheHeaders."""

    cache_control: str | None = None
    etag: str | None = None  # the version's tag, quoted, without a coding


@dataclass(frozen=True)
class Kept:
    """A 200 as the route wrote it: its headers (no length) and body."""

    headers: list[tuple[bytes, bytes]]
    body: bytes
    route: object  # the route that answered, for the request metrics of a kept answer
    cache_control: str


class KeptAnswer(Exception):
    """Send `kept` instead of running the route."""

    def __init__(self, kept: Kept) -> None:
        super().__init__("kept answer")
        self.kept = kept


class ReadCache:
    """Public reads' answers by (version, URL), the least recently used dropped first
    beyond `max_bytes`. Read from worker threads, written from the event loop: locked."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[str, bytes], Kept] = OrderedDict()
        self._versions_by_url: Counter[bytes] = Counter()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: tuple[str, bytes]) -> Kept | None:
        with self._lock:
            kept = self._entries.get(key)
            if kept is not None:
                self._entries.move_to_end(key)
            return kept

    def keeps(self, url: bytes) -> bool:
        """Whether some version's answer of `url` is kept: worth asking the version."""
        with self._lock:
            return url in self._versions_by_url

    def put(self, key: tuple[str, bytes], answer: Kept) -> None:
        if len(answer.body) > self.max_bytes // 8:  # one answer must not flush the rest
            return
        with self._lock:
            replaced = self._entries.pop(key, None)
            if replaced is None:
                self._versions_by_url[key[1]] += 1
            self._bytes += len(answer.body) - (len(replaced.body) if replaced else 0)
            self._entries[key] = answer
            while self._bytes > self.max_bytes:
                (_, url), dropped = self._entries.popitem(last=False)
                self._bytes -= len(dropped.body)
                self._versions_by_url[url] -= 1
                if not self._versions_by_url[url]:
                    del self._versions_by_url[url]


def _url(scope: Scope) -> bytes:
    """The key of an answer: its host too, since citations and sharing heads name it."""
    host = next((value for name, value in scope.get("headers", ()) if name == b"host"), b"")
    return host + f"{scope['path']}?".encode() + bytes(scope.get("query_string", b""))


class NotModified(Exception):
    def __init__(self, etag: str, cache_control: str) -> None:
        super().__init__(etag)
        self.etag = etag
        self.cache_control = cache_control


@cache
def _code_version() -> bytes:
    """A digest of this package's source, the same in every replica of one deploy."""
    digest = hashlib.blake2b(digest_size=12)
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.digest()


def _deploy_version(static_dir: Path) -> bytes:
    """The code's version and the dashboard's build: sharing pages are its index.html,
    which names every content-hashed script, so a new build must move their tags. Read
    again when the file changes (a rebuild under a running service)."""
    index = static_dir / "index.html"
    try:
        stat = index.stat()
    except OSError:
        return _code_version()
    return _built_version(index, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=4)
def _built_version(index: Path, mtime_ns: int, size: int) -> bytes:
    return hashlib.blake2b(_code_version() + index.read_bytes(), digest_size=12).digest()


# The version, and in the same round trip the private suites, which every anonymous read
# hides (tokens/visibility.py): hiding them costs a read no statement.
VERSION_QUERY = text(
    "SELECT pg_current_snapshot()::text, ARRAY(SELECT name FROM suite WHERE visibility = 'private')"
)


def data_version(session: Session, static_dir: Path) -> tuple[str, frozenset[str]]:
    """The committed data's version under this deploy, as a quoted strong entity tag,
    and the private suites' names."""
    snapshot, private = session.execute(VERSION_QUERY).one()
    version = _deploy_version(static_dir) + str(snapshot).encode()
    digest = hashlib.blake2b(version, digest_size=12)
    return f'"{digest.hexdigest()}"', frozenset(private)


def conditional_read(
    request: Request, session: Session, *, public: bool, cache_control: str = PUBLIC
) -> frozenset[str] | None:
    """Decide this read's caching; raise NotModified when the client's copy is current.
    The private suites' names, when the version was read (a public read), else None.
    `cache_control` is a public answer's (pages: revalidated at each visit).

    Call it before any other query of the answer (see the module's docstring)."""
    policy = request.scope.get(_POLICY_KEY)
    if not isinstance(policy, ReadPolicy) or request.method not in ("GET", "HEAD"):
        return None
    if not public:
        policy.cache_control = PRIVATE
        return None
    policy.cache_control = cache_control
    settings: Settings = request.app.state.settings
    policy.etag, private = data_version(session, settings.static_dir)
    held = _held_version(request.headers.get("if-none-match", ""), policy.etag)
    if held is not None:
        raise NotModified(held, cache_control)
    cache: ReadCache | None = getattr(request.app.state, "read_cache", None)
    kept = cache.get((policy.etag, _url(request.scope))) if cache else None
    if kept is not None:
        raise KeptAnswer(kept)
    return private


def code_read(request: Request) -> None:
    """Decide the caching of a read that is a function of this code alone (the upload
    contract's JSON Schema): its tag is the code's version, current until a deploy, and a
    client holding it gets a 304 without a query."""
    policy = request.scope.get(_POLICY_KEY)
    if not isinstance(policy, ReadPolicy):
        return
    policy.cache_control = PUBLIC
    policy.etag = f'"{hashlib.blake2b(_code_version(), digest_size=12).hexdigest()}"'
    held = _held_version(request.headers.get("if-none-match", ""), policy.etag)
    if held is not None:
        raise NotModified(held, PUBLIC)


def _held_version(if_none_match: str, current: str) -> str | None:
    """The tag of If-None-Match (weak comparison, as RFC 9110 asks) whose version is
    `current`, with its coding; None when the client holds no current copy."""
    for candidate in if_none_match.split(","):
        tag = candidate.strip().removeprefix("W/")
        if tag == "*" or tag.strip('"').split("-")[0] == current.strip('"'):
            return current if tag == "*" else tag
    return None


def _not_modified(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, NotModified)
    return _not_modified_response(exc.etag, exc.cache_control)


def _not_modified_response(etag: str, cache_control: str) -> Response:
    headers = {"ETag": etag, "Cache-Control": cache_control, "Vary": "Accept-Encoding"}
    return Response(status_code=304, headers=headers)


def _kept_answer(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, KeptAnswer)
    return _kept_response(exc.kept)


def _kept_response(kept: Kept) -> Response:
    response = Response(kept.body)
    response.raw_headers = [*kept.headers, (b"content-length", str(len(kept.body)).encode())]
    return response


class KeepReads:
    """ASGI middleware, inside the compression: keeps each public read's 200 in `cache`
    as the route wrote it."""

    def __init__(self, app: ASGIApp, *, cache: ReadCache) -> None:
        self.app = app
        self.cache = cache

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        policy = scope.get(_POLICY_KEY)
        if not isinstance(policy, ReadPolicy) or _carries_token(scope):
            await self.app(scope, receive, send)
            return
        headers: list[tuple[bytes, bytes]] | None = None
        chunks: list[bytes] = []

        async def keep(message: Message) -> None:
            nonlocal headers
            if message["type"] == "http.response.start" and message["status"] == 200:
                headers = [(k, v) for k, v in message["headers"] if k != b"content-length"]
            elif message["type"] == "http.response.body" and headers is not None:
                chunks.append(message.get("body", b""))
                if not message.get("more_body") and policy.etag and not scope.get(_KEPT_KEY):
                    body, route = b"".join(chunks), scope.get("route")
                    kept = Kept(headers, body, route, policy.cache_control or PUBLIC)
                    self.cache.put((policy.etag, _url(scope)), kept)
            await send(message)

        await self.app(scope, receive, keep)


def _carries_token(scope: Scope) -> bool:
    """A request with credentials: its answer may differ from a reader's without them."""
    return any(name == b"authorization" for name, _ in scope.get("headers", ()))


class VersionClock:
    """The data's version for requests of this process, one query at a time.

    A request waits for a query that starts after it arrived (never one already running,
    which may predate a write its client saw commit); every request arriving meanwhile
    shares the next one. Called from the event loop only."""

    def __init__(self, read: Callable[[], str]) -> None:
        self._read = read
        self._running = False
        self._next: asyncio.Future[str] | None = None

    async def current(self) -> str:
        answer = self._next
        if answer is None:
            answer = self._next = asyncio.get_running_loop().create_future()
            if not self._running:
                self._start()
        return await asyncio.shield(answer)

    def _start(self) -> None:
        answer, self._next = self._next, None
        assert answer is not None
        self._running = True
        asyncio.get_running_loop().create_task(self._query(answer))

    async def _query(self, answer: asyncio.Future[str]) -> None:
        try:
            answer.set_result(await run_in_threadpool(self._read))
        except Exception as error:  # every waiter gets it (ServeKept falls back on the route)
            answer.set_exception(error)
        finally:
            self._running = False
            if self._next is not None:
                self._start()


class ServeKept:
    """ASGI middleware, outside admission control: answers a token-less public GET whose
    answer is kept under the current version (or a 304), without taking a turn."""

    def __init__(
        self, app: ASGIApp, *, cache: ReadCache, clock: VersionClock, settings: Settings
    ) -> None:
        self.app = app
        self.cache = cache
        self.clock = clock
        self.settings = settings
        # URL -> done, while one request builds that URL's answer anew.
        self._building: dict[bytes, asyncio.Future[None]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        policy = scope.get(_POLICY_KEY)
        url = _url(scope) if isinstance(policy, ReadPolicy) else b""
        if (
            not isinstance(policy, ReadPolicy)
            or not self.settings.public_read
            or _carries_token(scope)
            or not self.cache.keeps(url)
        ):
            await self.app(scope, receive, send)
            return
        try:
            version = await self.clock.current()
        except SQLAlchemyError:
            await self.app(scope, receive, send)
            return
        kept = self.cache.get((version, url))
        if kept is None:
            kept = await self._after_the_build(url, version)
        if kept is None:
            await self._build(url, scope, receive, send)
            return
        scope["route"] = kept.route
        scope[_KEPT_KEY] = True
        policy.cache_control, policy.etag = kept.cache_control, version
        held = _held_version(Request(scope).headers.get("if-none-match", ""), version)
        answer = _not_modified_response(held, kept.cache_control) if held else _kept_response(kept)
        await answer(scope, receive, send)

    async def _after_the_build(self, url: bytes, version: str) -> Kept | None:
        """The answer of `url` under `version`, once the request building it anew is done:
        after a write, a crowd on one URL waits for one build instead of queueing a build
        each for a turn. None if none is building, or it took longer than a turn's wait."""
        building = self._building.get(url)
        if building is None:
            return None
        with suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(building), self.settings.request_wait_s)
        return self.cache.get((version, url))

    async def _build(self, url: bytes, scope: Scope, receive: Receive, send: Send) -> None:
        if url in self._building:  # another build is late: this one runs as any request
            await self.app(scope, receive, send)
            return
        done = asyncio.get_running_loop().create_future()
        self._building[url] = done
        try:
            await self.app(scope, receive, send)
        finally:
            del self._building[url]
            done.set_result(None)


class CacheHeaders:
    """ASGI middleware: gives each read its ReadPolicy, and writes the policy's
    Cache-Control and ETag (with the answer's coding) on its 200."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        policy = ReadPolicy()
        scope[_POLICY_KEY] = policy

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 200:
                headers = MutableHeaders(scope=message)
                if policy.cache_control:
                    headers["Cache-Control"] = policy.cache_control
                if policy.etag:
                    coding = headers.get("content-encoding")
                    headers["ETag"] = f'{policy.etag[:-1]}-{coding}"' if coding else policy.etag
            await send(message)

        await self.app(scope, receive, send_with_headers)


def serve_kept(app: FastAPI, cache: ReadCache) -> None:
    """Answer kept reads ahead of admission control: add it just outside Admission."""

    def read_version() -> str:
        state = app.state
        factory: sessionmaker[Session] = state.read_session_factory or state.session_factory
        with factory() as session:
            return data_version(session, state.settings.static_dir)[0]

    clock = VersionClock(read_version)
    app.add_middleware(ServeKept, cache=cache, clock=clock, settings=app.state.settings)


def keep_reads(app: FastAPI, cache: ReadCache) -> None:
    """Keep public reads' answers; add it just inside the compression."""
    app.add_middleware(KeepReads, cache=cache)


def install_caching(app: FastAPI) -> None:
    """Validators and Cache-Control, outside the compression middleware, where the coding
    is known: call after adding it."""
    app.add_middleware(CacheHeaders)
    app.add_exception_handler(NotModified, _not_modified)
    app.add_exception_handler(KeptAnswer, _kept_answer)
