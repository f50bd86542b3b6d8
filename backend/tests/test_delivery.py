"""The built dashboard as browsers get it: precompressed by Accept-Encoding, cached by
whether a name is content-hashed, with security headers; JSON compressed when large."""

import gzip
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from benchboard.config import Settings

pytestmark = pytest.mark.usefixtures("built_dashboard")


@pytest.fixture
def built_dashboard(settings: Settings) -> Path:
    if not (settings.static_dir / "index.html").is_file():
        pytest.fail("frontend/dist is not built: `make test` builds it first")
    return settings.static_dir


def _scripts(html: str) -> list[str]:
    """Every <script>'s src; an inline script fails the test."""
    tags = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, flags=re.S)
    sources = []
    for attributes, body in tags:
        assert not body.strip(), f"inline script: {body[:80]!r}"
        source = re.search(r'src="([^"]+)"', attributes)
        assert source is not None, f"a script without src: {attributes!r}"
        sources.append(source[1])
    return sources


def _entry_script(client: TestClient) -> str:
    (script,) = [src for src in _scripts(client.get("/").text) if src.startswith("/assets/")]
    return script


def test_index_is_revalidated_and_carries_the_security_headers(client: TestClient) -> None:
    response = client.get("/explore?suite=x")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-cache"
    policy = response.headers["content-security-policy"]
    for directive in (
        "script-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "default-src 'self'",
    ):
        assert directive in policy
    assert "unsafe-inline" not in policy.split("style-src")[0]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "same-origin"


def test_api_answers_carry_the_security_headers(client: TestClient) -> None:
    response = client.get("/api/v1/series")
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


@pytest.mark.parametrize(
    ("accept", "encoding", "suffix"),
    [
        ("gzip, deflate, br, zstd", "br", ".br"),
        ("gzip", "gzip", ".gz"),
        ("br;q=0, gzip", "gzip", ".gz"),
    ],
)
def test_hashed_asset_is_served_precompressed_and_immutable(
    client: TestClient, built_dashboard: Path, accept: str, encoding: str, suffix: str
) -> None:
    script = _entry_script(client)
    response = client.get(script, headers={"Accept-Encoding": accept})
    assert response.status_code == 200
    assert response.headers["content-encoding"] == encoding
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert response.headers["vary"] == "Accept-Encoding"
    on_disk = built_dashboard / script.lstrip("/")
    raw = client.get(script, headers={"Accept-Encoding": accept}).num_bytes_downloaded
    assert raw == len((on_disk.parent / (on_disk.name + suffix)).read_bytes())
    if encoding == "gzip":
        assert response.content == on_disk.read_bytes()  # httpx decoded it
        assert (
            gzip.decompress(on_disk.with_name(on_disk.name + ".gz").read_bytes())
            == on_disk.read_bytes()
        )


def test_asset_without_accept_encoding_is_served_as_built(
    client: TestClient, built_dashboard: Path
) -> None:
    script = _entry_script(client)
    response = client.get(script, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in response.headers
    assert response.content == (built_dashboard / script.lstrip("/")).read_bytes()


def test_unknown_asset_is_404(client: TestClient) -> None:
    assert client.get("/assets/nothing-here.js").status_code == 404


@pytest.mark.parametrize(
    ("accept", "encoding"),
    [
        ("gzip, deflate, br, zstd", "zstd"),  # Chrome, Edge, Firefox
        ("gzip, deflate, br", "br"),  # Safari
        ("gzip", "gzip"),
        ("zstd;q=0, gzip", "gzip"),
    ],
)
def test_large_json_is_compressed_by_accept_encoding_and_small_json_is_not(
    client: TestClient, accept: str, encoding: str
) -> None:
    plain = client.get("/openapi.json", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    large = client.get("/openapi.json", headers={"Accept-Encoding": accept})
    assert large.headers["content-encoding"] == encoding
    assert "Accept-Encoding" in large.headers["vary"]
    assert large.num_bytes_downloaded < len(plain.content) / 3
    assert large.content == plain.content  # decoded by httpx, byte for byte
    small = client.get("/api/v1/regressions?limit=1", headers={"Accept-Encoding": accept})
    assert len(small.content) < 1024
    assert "content-encoding" not in small.headers


def test_docs_are_served_from_bundled_files_without_inline_script(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    scripts = _scripts(page.text)
    assert "/docs/swagger-ui-bundle.js" in scripts
    for src in scripts:
        assert src.startswith("/"), "every script comes from the service"
        assert client.get(src).status_code == 200
    assert client.get("/docs/swagger-ui.css").status_code == 200
    assert "cdn" not in page.text.lower()
