"""Sharing cards: the pages a reader links to carry og: and twitter: tags that match what
they show, and still start the single-page app as index.html does."""

from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from benchboard.config import Settings
from tests.history_builder import NOISY_LEVEL, upload_history
from tests.publication.test_figures_api import png_size
from tests.seeded import seeded  # noqa: F401  (a fixture)

pytestmark = pytest.mark.usefixtures("seeded", "built_dashboard")


@pytest.fixture
def built_dashboard(settings: Settings) -> None:
    if not (settings.static_dir / "index.html").is_file():
        pytest.fail("frontend/dist is not built: `make test` builds it first")


class _Head(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.scripts: list[str] = []
        self.titles: list[str] = []
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = dict(attrs)
        if tag == "meta" and (given.get("property") or given.get("name")):
            self.meta[str(given.get("property") or given.get("name"))] = str(given["content"])
        if tag == "script":
            self.scripts.append(str(given.get("src")))
        self._in_title = tag == "title"

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.titles.append(data)
            self._in_title = False


def head_of(client: TestClient, path: str) -> _Head:
    response = client.get(path)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/html")
    parsed = _Head()
    parsed.feed(response.text)
    return parsed


def test_a_study_page_is_shared_with_its_title_first_finding_and_card(
    client: TestClient,
) -> None:
    suite = "dart-async-file-writes"
    study = client.get(f"/api/v1/suites/{suite}/study").json()
    head = head_of(client, f"/studies/{suite}")
    assert head.meta["og:title"] == study["title"]
    assert head.meta["og:description"] == study["findings"][0]["text"]
    assert head.meta["twitter:card"] == "summary_large_image"
    assert head.meta["og:url"] == f"http://testserver/studies/{suite}"
    image = head.meta["og:image"]
    assert image == f"http://testserver/api/v1/suites/{suite}/card.png"
    assert png_size(client.get(image).content) == (1200, 630)
    assert head.titles == [f"{study['title']} · Benchboard"]
    # The app starts as from index.html: the same scripts.
    assert head.scripts == head_of(client, "/").scripts
    assert "og:title" not in head_of(client, "/").meta


def test_a_history_page_is_shared_with_its_series_and_chart(client: TestClient) -> None:
    series = client.get("/api/v1/series", params={"suite": "fio-sync-vs-async"}).json()["items"][0]
    head = head_of(client, f"/history?series={series['id']}&series=999")
    assert head.meta["og:title"] == f"fio-sync-vs-async: {series['metric'].replace('_', ' ')}"
    assert f"machine {series['hardware']}" in head.meta["og:description"]
    assert series["benchmark"] in head.meta["og:description"]
    image = head.meta["og:image"]
    assert image.startswith(f"http://testserver/api/v1/series/{series['id']}/chart.png?")
    assert png_size(client.get(image).content) == (1200, 630)


def test_a_modes_page_is_shared_with_its_pairs(client: TestClient) -> None:
    pairs = client.get("/api/v1/compare/modes", params={"suite": "fio-sync-vs-async"}).json()
    counted = sum(p["async_over_sync"] is not None for p in pairs["items"])
    head = head_of(client, "/modes?suite=fio-sync-vs-async&since=not-a-date")
    assert head.meta["og:title"] == "async / sync: fio-sync-vs-async"
    assert head.meta["og:description"].startswith(f"{counted} pairs")
    image = head.meta["og:image"]
    assert "suite=fio-sync-vs-async" in image
    assert "width=1200&height=630" in image
    assert png_size(client.get(image).content) == (1200, 630)


def test_pages_of_unknown_things_start_the_app_with_the_plain_head(client: TestClient) -> None:
    for path in ("/studies/no-such-study", "/history?series=999999", "/history"):
        head = head_of(client, path)
        assert "og:title" not in head.meta
        assert head.titles == ["Benchboard"]


def test_a_history_page_card_counts_the_days_the_page_shows(
    client: TestClient, auth: dict[str, str]
) -> None:
    upload_history(client, auth, NOISY_LEVEL, check=False)  # one run a day from 2025-01-01
    (series,) = client.get("/api/v1/series", params={"suite": "sync-vs-async-io"}).json()["items"]
    head = head_of(client, f"/history?series={series['id']}&since=2025-01-03&until=2025-01-05")
    assert head.meta["og:description"].endswith(" · 3 points")  # the 3rd, 4th and 5th, whole
    image = head.meta["og:image"]
    response = client.get(image)
    assert response.status_code == 200, image
    assert png_size(response.content) == (1200, 630)
