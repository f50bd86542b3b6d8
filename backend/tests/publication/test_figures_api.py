"""Published figures through HTTP: every SVG parsed and its marks checked against the
data (one per run, the unit, the change markers), PNGs of the asked size, caching."""

import re
import struct
import xml.etree.ElementTree as ET
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.history_builder import NOISY_LEVEL, STEPPED, upload_history
from tests.seeded import seeded  # noqa: F401  (a fixture)

SVG = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"


def svg_of(client: TestClient, path: str, **params: Any) -> ET.Element:
    response = client.get(path, params=params)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "image/svg+xml"
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))  # noqa: S314
    return ET.fromstring(response.content, parser=parser)  # noqa: S314  (our own output)


def by_id(root: ET.Element, gid: str) -> ET.Element:
    found = root.find(f".//*[@id='{gid}']")
    assert found is not None, f"no element with id {gid!r}"
    return found


def ids(root: ET.Element, pattern: str) -> list[str]:
    return [e.get("id", "") for e in root.iter() if re.fullmatch(pattern, e.get("id") or "")]


def words(element: ET.Element) -> str:
    """The texts drawn under an element: glyphs are paths, each text's words a comment."""
    return " ".join(str(e.text).strip() for e in element.iter() if e.tag is ET.Comment)


def run_marks(root: ET.Element) -> list[tuple[float, float]]:
    return [
        (float(u.get("x", 0)), float(u.get("y", 0))) for u in by_id(root, "runs").iter(f"{SVG}use")
    ]


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    assert body[12:16] == b"IHDR"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def series_id(client: TestClient) -> int:
    (series,) = client.get("/api/v1/series").json()["items"]
    return int(series["id"])


def test_history_svg_has_one_mark_per_run_its_unit_changes_and_notes(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    run_ids = upload_history(client, auth, STEPPED)
    sid = series_id(client)
    note = {"text": "new kernel", "series_id": sid, "run_id": run_ids[5]}
    headers = {"Authorization": f"Bearer {maintain_token}"}
    assert client.post("/api/v1/annotations", json=note, headers=headers).status_code == 201

    root = svg_of(client, f"/api/v1/series/{sid}/chart.svg")
    marks = run_marks(root)
    assert len(marks) == len(STEPPED)
    assert [x for x, _ in marks] == sorted(x for x, _ in marks)  # in time order
    # Higher values draw higher (smaller y): the marks' heights rank as the values do.
    by_height = sorted(range(len(marks)), key=lambda i: -marks[i][1])
    assert by_height == sorted(range(len(STEPPED)), key=lambda i: STEPPED[i])
    assert words(by_id(root, "value-axis")) == "time_per_op (us)"
    assert ids(root, r"change-\d+") == ["change-0"]  # the one 30 % step
    assert "+30" in words(by_id(root, "change-0-label"))
    assert ids(root, r"annotation-\d+") == ["annotation-0"]
    assert words(by_id(root, "annotation-0-label")) == "new kernel"
    caption = words(by_id(root, "caption"))
    assert "file-write-tiny" in caption
    assert "machine test-machine" in caption
    assert root.get("width") == "800px"
    assert root.get("height") == "400px"


def test_names_are_drawn_as_written_not_as_tex(client: TestClient, auth: dict[str, str]) -> None:
    upload_history(client, auth, NOISY_LEVEL[:3], benchmark="cost $x^{$ of _y")
    root = svg_of(client, f"/api/v1/series/{series_id(client)}/chart.svg")
    assert "cost $x^{$ of _y" in words(by_id(root, "caption"))


def test_since_and_until_draw_only_their_window(client: TestClient, auth: dict[str, str]) -> None:
    upload_history(client, auth, STEPPED)
    sid = series_id(client)
    window = {"since": "2025-01-06T00:00:00Z", "until": "2025-01-10T00:00:00Z"}
    root = svg_of(client, f"/api/v1/series/{sid}/chart.svg", **window, width=600, height=300)
    assert len(run_marks(root)) == 5
    assert ids(root, r"change-\d+") == []  # the step is on 2025-01-11, outside
    assert root.get("width") == "600px"


def test_pngs_are_pngs_of_the_asked_size(client: TestClient, auth: dict[str, str]) -> None:
    upload_history(client, auth, NOISY_LEVEL)
    sid = series_id(client)
    light = client.get(f"/api/v1/series/{sid}/chart.png", params={"width": 640, "height": 360})
    assert light.headers["content-type"] == "image/png"
    assert png_size(light.content) == (640, 360)
    dark = client.get(
        f"/api/v1/series/{sid}/chart.png", params={"width": 640, "height": 360, "theme": "dark"}
    )
    assert png_size(dark.content) == (640, 360)
    assert dark.content != light.content


def test_images_carry_an_etag_and_answer_304(client: TestClient, auth: dict[str, str]) -> None:
    upload_history(client, auth, NOISY_LEVEL)
    path = f"/api/v1/series/{series_id(client)}/chart.svg"
    first = client.get(path)
    etag = first.headers["etag"]
    assert first.headers["cache-control"].startswith("public")
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""


@pytest.mark.parametrize(
    ("params", "field"),
    [({"width": 10}, "width"), ({"theme": "pink"}, "theme"), ({"height": 99999}, "height")],
)
def test_bad_image_parameters_are_422_naming_the_field(
    client: TestClient, auth: dict[str, str], params: dict[str, Any], field: str
) -> None:
    upload_history(client, auth, NOISY_LEVEL[:3])
    response = client.get(f"/api/v1/series/{series_id(client)}/chart.svg", params=params)
    assert response.status_code == 422
    assert [f["path"] for f in response.json()["fields"]] == [field]


def test_unknown_format_and_missing_things(client: TestClient, auth: dict[str, str]) -> None:
    upload_history(client, auth, NOISY_LEVEL[:3])
    assert client.get(f"/api/v1/series/{series_id(client)}/chart.gif").status_code == 422
    assert client.get("/api/v1/series/999999/chart.svg").status_code == 404
    assert client.get("/api/v1/series/999999/badge.svg").status_code == 404
    assert client.get("/api/v1/findings/999999/chart.png").status_code == 404


@pytest.mark.parametrize(
    ("values", "colour"),
    [([*NOISY_LEVEL, 130.0], "#cf222e"), ([*NOISY_LEVEL, 100.0], "#0969da"), ([100.0], "#6e7781")],
)
def test_the_badge_says_the_latest_value_and_is_coloured_by_verdict(
    client: TestClient, auth: dict[str, str], values: list[float], colour: str
) -> None:
    upload_history(client, auth, values)
    root = svg_of(client, f"/api/v1/series/{series_id(client)}/badge.svg")
    assert words(by_id(root, "badge-text-0")) == "file-write-tiny"
    value = words(by_id(root, "badge-text-1"))
    assert value.startswith(f"{values[-1]:g} us")
    if colour == "#cf222e":  # 130 against the run before, 100.1
        assert value.endswith("+29.9% slower")
    assert colour in ET.tostring(by_id(root, "badge-1"), encoding="unicode")


def _bar_extent(root: ET.Element, gid: str) -> tuple[float, float]:
    """The x extent of a bar: its path's coordinates."""
    (path,) = by_id(root, gid).iter(f"{SVG}path")
    xs = [float(x) for x in re.findall(r"([-0-9.]+) [-0-9.]+", path.get("d", ""))]
    return min(xs), max(xs)


@pytest.mark.usefixtures("seeded")
def test_a_finding_chart_draws_its_two_sides_to_scale(client: TestClient) -> None:
    finding = client.get("/api/v1/suites/dart-async-file-writes/findings").json()["items"][0]
    root = svg_of(client, f"/api/v1/findings/{finding['id']}/chart.svg")
    assert ids(root, r"bar-\d+") == ["bar-0", "bar-1"]
    (n0, n1), (d0, d1) = _bar_extent(root, "bar-0"), _bar_extent(root, "bar-1")
    assert n0 == pytest.approx(d0)  # both from zero
    assert (n1 - n0) / (d1 - d0) == pytest.approx(finding["ratio"], rel=1e-3)
    assert words(by_id(root, "title")) == finding["text"]
    unit = finding["numerator"]["unit"]
    assert words(by_id(root, "value-axis")) == f"{finding['numerator']['metric']} ({unit})"
    png = client.get(f"/api/v1/findings/{finding['id']}/chart.png", params={"width": 900})
    assert png_size(png.content) == (900, 400)


@pytest.mark.usefixtures("seeded")
def test_a_leaderboard_chart_has_a_bar_per_series_best_first(client: TestClient) -> None:
    board = {"suite": "go-vs-dart-rest", "benchmark": "rest-api", "metric": "throughput"}
    series = client.get("/api/v1/series", params=board).json()["items"]
    if not series:  # the seed study's names: take its first benchmark and metric
        first = client.get("/api/v1/series", params={"suite": "go-vs-dart-rest"}).json()["items"][0]
        board |= {"benchmark": first["benchmark"], "metric": first["metric"]}
        series = client.get("/api/v1/series", params=board).json()["items"]
    root = svg_of(client, "/api/v1/leaderboard/chart.svg", **board)
    assert len(ids(root, r"bar-\d+")) == len(series)
    lengths = [_bar_extent(root, f"bar-{i}")[1] for i in range(len(series))]
    higher_is_better = series[0]["direction"] == "higher"
    assert lengths == sorted(lengths, reverse=higher_is_better)
    several = client.get("/api/v1/leaderboard/chart.svg", params={"suite": "go-vs-dart-rest"})
    assert several.status_code == 422
    assert [f["path"] for f in several.json()["fields"]] == ["metric"]


@pytest.mark.usefixtures("seeded")
def test_a_modes_chart_has_a_bar_per_pair_from_one(client: TestClient) -> None:
    query = {"suite": "dart-async-file-writes"}
    pairs = client.get("/api/v1/compare/modes", params=query).json()["items"]
    ratios = [p["async_over_sync"] for p in pairs if p["async_over_sync"] is not None]
    assert ratios
    root = svg_of(client, "/api/v1/compare/modes/chart.svg", **query)
    assert len(ids(root, r"bar-\d+")) == len(ratios)
    assert ids(root, "reference") == ["reference"]
    assert "$" not in words(root)  # the log axis' numbers are plain, not TeX drawn as written
    # Every bar grows from the reference line at 1, towards its ratio.
    (line,) = by_id(root, "reference").iter(f"{SVG}path")
    one = float(re.findall(r"([-0-9.]+) [-0-9.]+", line.get("d", ""))[0])
    for index, ratio in enumerate(ratios):
        low, high = _bar_extent(root, f"bar-{index}")
        assert (low if ratio > 1 else high) == pytest.approx(one, abs=0.01)


@pytest.mark.usefixtures("seeded")
def test_the_study_card_is_a_1200_by_630_png(client: TestClient) -> None:
    response = client.get("/api/v1/suites/dart-async-file-writes/card.png")
    assert response.status_code == 200
    assert png_size(response.content) == (1200, 630)
    assert client.get("/api/v1/suites/no-such-study/card.png").status_code == 404


@pytest.mark.usefixtures("seeded")
def test_citations_carry_the_study_metadata(client: TestClient) -> None:
    suite = "dart-async-file-writes"
    study = client.get(f"/api/v1/suites/{suite}/study").json()
    bib = client.get(f"/api/v1/suites/{suite}/citation", params={"format": "bibtex"})
    assert bib.status_code == 200
    assert bib.headers["content-type"].startswith("application/x-bibtex")
    assert bib.text.startswith(f"@misc{{benchboard-{suite},")
    assert f"title = {{{{{study['title']}}}}}" in bib.text
    assert " and ".join(study["authors"]) in bib.text
    assert f"url = {{http://testserver/studies/{suite}}}" in bib.text
    runs = client.get("/api/v1/runs", params={"suite": suite, "limit": 500}).json()["items"]
    assert 0 < len(runs) < 500
    assert f"{len(runs)} runs from" in bib.text

    cff = client.get(f"/api/v1/suites/{suite}/citation", params={"format": "cff"})
    parsed = yaml.safe_load(cff.text)
    assert parsed["cff-version"] == "1.2.0"
    assert parsed["title"] == study["title"]
    assert [a["name"] for a in parsed["authors"]] == study["authors"]
    assert parsed["url"] == f"http://testserver/studies/{suite}"
    assert str(parsed["date-released"]) == max(r["started_at"] for r in runs)[:10]
    assert (
        client.get(f"/api/v1/suites/{suite}/citation", params={"format": "ris"}).status_code == 422
    )


def tick_labels(root: ET.Element) -> list[str]:
    """The bars' labels top to bottom, each line of a label a text of its own."""
    return [words(e) for e in root.iter() if re.fullmatch(r"ytick_\d+", e.get("id") or "")]


@pytest.mark.usefixtures("seeded")
def test_a_modes_charts_labels_name_what_tells_each_pair_apart(client: TestClient) -> None:
    """As the README draws it: 800 × 360. Pairs of one benchmark differ by `writes` or by
    the sides' variants; their metric, language and machine are said once."""
    query = {"suite": "dart-async-file-writes"}
    pairs = client.get("/api/v1/compare/modes", params=query).json()["items"]
    root = svg_of(client, "/api/v1/compare/modes/chart.svg", **query, height=360)
    labels = tick_labels(root)
    assert len(labels) == len(pairs)
    assert len(set(labels)) == len(labels)
    subtitle = words(by_id(root, "subtitle"))
    for said_once in ("time_per_op", "dart:io", pairs[0]["hardware"]):
        assert said_once in subtitle
        assert not any(said_once in label for label in labels)
    for pair, label in zip(pairs, labels, strict=True):
        assert label.split(" · ")[0] == pair["benchmark"]
        namesakes = [p for p in pairs if p["benchmark"] == pair["benchmark"]]
        if len({p["params"]["writes"] for p in namesakes}) > 1:
            assert f"writes={pair['params']['writes']} " in f"{label} "
        sides = (pair["async"]["variant"], pair["sync"]["variant"])
        if sides[0] != sides[1]:
            assert f"async {sides[0]} vs sync {sides[1]}" in label


@pytest.mark.usefixtures("seeded")
@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("compare/modes", {}),  # three studies' pairs, more than 400 px draws
        ("compare/modes", {"suite": "fio-sync-vs-async"}),
        ("compare/modes", {"suite": "wpf-async-log-reading"}),
        ("leaderboard", {"suite": "go-vs-dart-rest", "metric": "throughput"}),
        ("leaderboard", {"suite": "fio-sync-vs-async", "metric": "latency"}),
    ],
)
def test_every_bar_of_a_seed_chart_has_a_label_of_its_own(
    client: TestClient, path: str, query: dict[str, str]
) -> None:
    root = svg_of(client, f"/api/v1/{path}/chart.svg", **query)
    labels = tick_labels(root)
    assert len(labels) == len(ids(root, r"bar-\d+")) > 1
    assert len(set(labels)) == len(labels), labels
