"""Public reads carry a strong ETag and Cache-Control, and answer 304 while the data has
not changed (caching.py)."""

import asyncio
import re
import threading
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, Engine, event
from sqlalchemy.orm import sessionmaker
from starlette.types import Message, Receive, Scope, Send

from benchboard.caching import (
    _POLICY_KEY,
    PRIVATE,
    PUBLIC,
    VERSION_QUERY,
    Kept,
    ReadCache,
    ReadPolicy,
    ServeKept,
    VersionClock,
)
from benchboard.config import Settings
from benchboard.delivery import REVALIDATE
from benchboard.main import create_app
from tests.builders import run
from tests.history_builder import STEPPED, upload_history
from tests.live import live_service_on
from tests.read_routes import pin_a_finding, public_reads, seeded_read_urls
from tests.seeded import seeded  # noqa: F401  (a fixture)

STRONG_TAG = re.compile(r'^"[0-9a-f]{24}(-[a-z]+)?"$')


@pytest.fixture
def read_urls(client: TestClient, auth: dict[str, str], maintain_token: str) -> dict[str, str]:
    """A URL answering 200 for each public read route, over a history with one regression."""
    run_ids = upload_history(client, auth, STEPPED)
    pin_a_finding(client, run_ids, {"Authorization": f"Bearer {maintain_token}"})
    return seeded_read_urls(client, run_ids)


def test_every_public_read_has_a_strong_etag_and_answers_304_while_unchanged(
    client: TestClient, read_urls: dict[str, str]
) -> None:
    assert set(read_urls) == public_reads(client.app)  # type: ignore[arg-type]
    for url in read_urls.values():
        first = client.get(url)
        assert first.status_code == 200, (url, first.text)
        etag = first.headers["ETag"]
        assert STRONG_TAG.match(etag), (url, etag)
        assert first.headers["Cache-Control"] == PUBLIC, url
        again = revalidate(client, url, etag)
        assert again.status_code == 304, url
        assert again.content == b""
        assert STRONG_TAG.match(again.headers["ETag"]), url
        assert again.headers["Cache-Control"] == PUBLIC


def revalidate(client: TestClient, url: str, etag: str) -> httpx.Response:
    """`url` with If-None-Match: `etag`, sent again with the newer tag if a transaction
    elsewhere on the server (autovacuum's ANALYZE, another test) moved the version."""
    for _ in range(5):
        answer = client.get(url, headers={"If-None-Match": etag})
        if answer.status_code != 200 or answer.headers["ETag"] == etag:
            return answer
        etag = answer.headers["ETag"]
    return answer


def test_public_reads_may_be_cached_briefly_and_served_stale_while_revalidated() -> None:
    directives = dict(part.strip().partition("=")[::2] for part in PUBLIC.split(",") if "=" in part)
    assert PUBLIC.startswith("public,")
    assert 0 < int(directives["max-age"]) <= 10
    assert int(directives["stale-while-revalidate"]) > 0


def test_a_committed_write_moves_the_etag(settings: Settings, engine: Engine) -> None:
    # Committed for real: inside a test's transaction, its own writes never move the
    # snapshot the version is read from.
    body = run(suite=f"etag-{uuid.uuid4().hex[:8]}")
    keeping = settings.model_copy(update={"read_cache_mb": 8})
    with live_service_on(keeping, engine) as live:
        live.suites.add(body["suite"])
        live.machines.add(body["hardware"]["name"])
        httpx.get(f"{live.url}/api/v1/suites")  # kept…
        before = httpx.get(f"{live.url}/api/v1/suites").headers["ETag"]
        held = {"If-None-Match": before}
        auth = {"Authorization": f"Bearer {live.token}"}
        stored = httpx.post(f"{live.url}/api/v1/runs", json=body, headers=auth)
        assert stored.status_code == 201
        after = httpx.get(f"{live.url}/api/v1/suites", headers=held)
    assert after.status_code == 200
    assert after.headers["ETag"] != before
    # …and not served once the data moved on.
    assert body["suite"] in {item["suite"] for item in after.json()["items"]}


def test_a_kept_answer_is_the_routes_own_and_costs_only_the_version_query(
    settings: Settings, engine: Engine, connection: Connection, auth: dict[str, str]
) -> None:
    keeping = settings.model_copy(update={"read_cache_mb": 8})
    app = create_app(keeping, database_url=engine.url.render_as_string(hide_password=False))
    app.state.session_factory = sessionmaker(
        bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
    )
    statements: list[str] = []

    def record(*args: Any) -> None:
        statements.append(args[2])

    with TestClient(app) as client:
        upload_history(client, auth, STEPPED, check=False)
        url = "/api/v1/suites/sync-vs-async-io/study"
        built = client.get(url, headers={"Accept-Encoding": "identity"})
        event.listen(connection, "before_cursor_execute", record)
        try:
            kept = client.get(url, headers={"Accept-Encoding": "identity"})
            zipped = client.get(url, headers={"Accept-Encoding": "gzip"})
        finally:
            event.remove(connection, "before_cursor_execute", record)
    assert [sql for sql in statements if "SAVEPOINT" not in sql] == [str(VERSION_QUERY)] * 2
    assert kept.status_code == zipped.status_code == 200
    assert kept.content == built.content
    assert kept.headers["Content-Type"] == built.headers["Content-Type"]
    assert kept.headers["ETag"] == built.headers["ETag"]
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert zipped.json() == built.json()


def test_the_coding_is_part_of_the_tag_and_any_coding_of_the_version_revalidates(
    client: TestClient, auth: dict[str, str]
) -> None:
    upload_history(client, auth, STEPPED, check=False)
    gzipped = client.get("/api/v1/runs", headers={"Accept-Encoding": "gzip"})
    assert gzipped.headers["Content-Encoding"] == "gzip"
    tag = gzipped.headers["ETag"]
    assert tag.endswith('-gzip"')
    plain = client.get("/api/v1/runs", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers
    assert plain.headers["ETag"] == tag.removesuffix('-gzip"') + '"'
    for held in (tag, f'"elsewhere", W/{tag}', "*"):
        headers = {"If-None-Match": held, "Accept-Encoding": "br"}
        answer = client.get("/api/v1/runs", headers=headers)
        if answer.status_code == 200:  # the version moved meanwhile (see revalidate)
            tag = answer.headers["ETag"].removesuffix('-br"') + '-gzip"'
            answer = client.get("/api/v1/runs", headers={**headers, "If-None-Match": tag})
        assert answer.status_code == 304, held
    stale = client.get("/api/v1/runs", headers={"If-None-Match": '"0123456789abcdef01234567"'})
    assert stale.status_code == 200


def test_reads_that_need_a_token_are_private_and_carry_no_etag(
    client: TestClient, auth: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client.app.state.settings, "public_read", False)  # type: ignore[attr-defined]
    answer = client.get("/api/v1/suites", headers=auth)
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == PRIVATE
    assert "ETag" not in answer.headers
    held = client.get("/api/v1/suites", headers={**auth, "If-None-Match": "*"})
    assert held.status_code == 200


def test_writes_health_and_errors_carry_no_cache_headers(
    client: TestClient, auth: dict[str, str]
) -> None:
    stored = client.post("/api/v1/runs", json=run(), headers=auth)
    missing = client.get("/api/v1/suites/no-such-suite")
    health = client.get("/api/v1/health")
    assert (stored.status_code, missing.status_code, health.status_code) == (201, 404, 200)
    for answer in (stored, missing, health):
        assert "ETag" not in answer.headers
        assert "Cache-Control" not in answer.headers


def test_the_version_clock_shares_a_query_but_never_one_that_started_before_the_request() -> None:
    started: list[int] = []
    running, release = threading.Event(), threading.Event()

    def read() -> str:
        started.append(len(started))
        running.set()
        release.wait(5)
        return f"v{len(started)}"

    async def scenario() -> tuple[list[str], list[str]]:
        clock = VersionClock(read)
        first = [asyncio.create_task(clock.current())]
        await asyncio.to_thread(running.wait, 5)
        # These arrive while the first query runs: they share the next one, not it.
        later = [asyncio.create_task(clock.current()) for _ in range(3)]
        release.set()
        return list(await asyncio.gather(*first)), list(await asyncio.gather(*later))

    first, later = asyncio.run(scenario())
    assert first == ["v1"]
    assert later == ["v2"] * 3
    assert started == [0, 1]


def test_the_read_cache_forgets_a_url_once_its_last_answer_is_dropped() -> None:
    cache = ReadCache(max_bytes=800)
    cache.put(('"a"', b"/one?"), Kept([], b"x" * 100, None, PUBLIC))
    cache.put(('"b"', b"/one?"), Kept([], b"x" * 100, None, PUBLIC))
    assert cache.keeps(b"/one?")
    for index in range(8):
        cache.put(('"c"', f"/other{index}?".encode()), Kept([], b"x" * 100, None, PUBLIC))
    assert not cache.keeps(b"/one?")
    assert cache.get(('"a"', b"/one?")) is None


@pytest.mark.usefixtures("seeded")
def test_answers_are_kept_per_host_since_citations_name_it(
    settings: Settings, engine: Engine, connection: Connection
) -> None:
    keeping = settings.model_copy(update={"read_cache_mb": 8})
    app = create_app(keeping, database_url=engine.url.render_as_string(hide_password=False))
    app.state.session_factory = sessionmaker(
        bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
    )
    url = "/api/v1/suites/dart-async-file-writes/citation?format=cff"
    with TestClient(app) as client:
        first = client.get(url, headers={"Host": "one.example"})
        other = client.get(url, headers={"Host": "two.example"})
    assert first.status_code == other.status_code == 200
    assert "//one.example/studies/" in first.text
    assert "//two.example/studies/" in other.text


def test_the_upload_schema_is_tagged_by_the_code_and_answers_304_without_a_query(
    client: TestClient, engine: Engine
) -> None:
    first = client.get("/api/v1/schema/upload")
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert STRONG_TAG.match(etag), etag
    assert first.headers["Cache-Control"] == PUBLIC
    statements: list[str] = []
    listen = lambda *args: statements.append(args[2])  # noqa: E731  (before_cursor_execute)
    event.listen(engine, "before_cursor_execute", listen)
    try:
        again = client.get("/api/v1/schema/upload", headers={"If-None-Match": etag})
    finally:
        event.remove(engine, "before_cursor_execute", listen)
    assert again.status_code == 304
    assert again.headers["ETag"] == etag
    assert statements == []


@pytest.mark.usefixtures("seeded")
def test_a_shared_page_is_tagged_and_kept_like_its_json_until_the_data_or_the_build_moves(
    settings: Settings, engine: Engine, connection: Connection, tmp_path: Path
) -> None:
    index = tmp_path / "index.html"
    index.write_text((settings.static_dir / "index.html").read_text())
    keeping = settings.model_copy(update={"read_cache_mb": 8, "static_dir": tmp_path})
    app = create_app(keeping, database_url=engine.url.render_as_string(hide_password=False))
    app.state.session_factory = sessionmaker(
        bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
    )
    statements: list[str] = []
    listen = lambda *args: statements.append(args[2])  # noqa: E731  (before_cursor_execute)
    url = "/studies/dart-async-file-writes"
    with TestClient(app) as client:
        built = client.get(url)
        etag = built.headers["ETag"]
        event.listen(connection, "before_cursor_execute", listen)
        try:
            kept = client.get(url)
        finally:
            event.remove(connection, "before_cursor_execute", listen)
        held = revalidate(client, url, etag)
        # A new build names new scripts: a page held from the old one is no longer current.
        index.write_text(
            index.read_text().replace("</head>", '<meta name="build" content="2">\n</head>')
        )
        rebuilt = client.get(url, headers={"If-None-Match": held.headers["ETag"]})
    assert built.status_code == kept.status_code == 200
    assert STRONG_TAG.match(etag), etag
    assert built.headers["Cache-Control"] == kept.headers["Cache-Control"] == REVALIDATE
    assert [sql for sql in statements if "SAVEPOINT" not in sql] == [str(VERSION_QUERY)]
    assert kept.content == built.content
    assert 'property="og:title"' in kept.text
    assert held.status_code == 304
    assert held.headers["Cache-Control"] == REVALIDATE
    assert rebuilt.status_code == 200
    assert rebuilt.headers["ETag"] != held.headers["ETag"]
    assert 'name="build"' in rebuilt.text


def test_after_a_write_a_crowd_on_one_url_waits_for_one_build(settings: Settings) -> None:
    cache = ReadCache(max_bytes=1 << 20)
    url = b"testserver/api/v1/suites?"
    cache.put(('"v1"', url), Kept([], b"old", None, PUBLIC))  # kept before the write
    builds: list[int] = []

    async def route(scope: Scope, receive: Receive, send: Send) -> None:
        builds.append(len(builds))
        await asyncio.sleep(0.05)  # the database's part
        cache.put(('"v2"', url), Kept([(b"content-type", b"text/plain")], b"new", None, PUBLIC))
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"new"})

    async def crowd() -> list[bytes]:
        serve = ServeKept(route, cache=cache, clock=VersionClock(lambda: '"v2"'), settings=settings)

        async def reader() -> bytes:
            sent: list[Message] = []
            scope: Scope = {
                "type": "http",
                "method": "GET",
                "path": "/api/v1/suites",
                "query_string": b"",
                "headers": [(b"host", b"testserver")],
                _POLICY_KEY: ReadPolicy(),
            }

            async def send(message: Message) -> None:
                sent.append(message)

            await serve(scope, _no_body, send)
            assert sent[0]["status"] == 200
            return b"".join(m.get("body", b"") for m in sent[1:])

        return list(await asyncio.gather(*(reader() for _ in range(20))))

    assert asyncio.run(crowd()) == [b"new"] * 20
    assert builds == [0]


async def _no_body() -> Message:
    return {"type": "http.request", "body": b""}
