from __future__ import annotations

import pytest

from benchboard_ingest.gate import (
    FailOn,
    SummaryContext,
    format_value,
    render_summary,
    series_label,
)
from benchboard_ingest.gitinfo import ci_git


@pytest.mark.parametrize(
    ("text", "min_change"),
    [("regression", 0.0), ("regression>5%", 0.05), ("regression > 12.5 %", 0.125)],
)
def test_fail_on_takes_an_optional_minimum_size(text: str, min_change: float) -> None:
    assert FailOn.parse(text).min_change == pytest.approx(min_change)


@pytest.mark.parametrize("text", ["regressions", "regression>5", "improvement", "regression>x%"])
def test_fail_on_refuses_anything_else(text: str) -> None:
    with pytest.raises(ValueError, match="--fail-on"):
        FailOn.parse(text)


def test_only_regressions_beyond_the_minimum_fail() -> None:
    items = [
        {"verdict": "regression", "relative_change": 0.04},
        {"verdict": "regression", "relative_change": 0.25},
        {"verdict": "improvement", "relative_change": -0.5},
        {"verdict": "unchanged", "relative_change": 0.3},
    ]
    comparison = {"items": items}
    assert FailOn.parse("regression").failing(comparison) == items[:2]
    assert FailOn.parse("regression>5%").failing(comparison) == [items[1]]
    assert FailOn.parse("regression>5%").describe() == "regression>5%"


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [
        (2530640.0, "ns", "2.531 ms"),
        (850.6, "us", "850.6 µs"),
        (0.5, "ms", "500 µs"),
        (12869.7, "req/s", "12,870 req/s"),
        (0.25, "MB/s", "0.25 MB/s"),
        (13.0, "count", "13"),
    ],
)
def test_values_read_in_the_unit_a_reader_expects(value: float, unit: str, text: str) -> None:
    assert format_value(value, unit) == text


def test_series_label_names_params_and_implementation() -> None:
    item = {
        "benchmark": "BenchmarkWriteFiles/sync",
        "params": {"n": 10},
        "language": "go",
        "implementation": None,
        "mode": "sync",
        "variant": None,
    }
    assert series_label(item) == "BenchmarkWriteFiles/sync (n=10) · go · sync"


def test_ci_variables_of_a_github_pull_request() -> None:
    environ = {
        "GITHUB_HEAD_REF": "fix-cache",
        "GITHUB_REF_NAME": "42/merge",
        "GITHUB_SHA": "abc123",
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_REPOSITORY": "acme/app",
    }
    assert ci_git(environ) == {
        "branch": "fix-cache",
        "commit": "abc123",
        "repo": "https://github.com/acme/app",
    }


def test_ci_variables_of_a_github_push_and_a_tag() -> None:
    push = {"GITHUB_HEAD_REF": "", "GITHUB_REF_NAME": "main", "GITHUB_REF_TYPE": "branch"}
    assert ci_git(push) == {"branch": "main"}
    tag = {"GITHUB_REF_NAME": "v1.2", "GITHUB_REF_TYPE": "tag", "GITHUB_SHA": "abc"}
    assert ci_git(tag) == {"commit": "abc"}


def test_ci_variables_of_gitlab() -> None:
    environ = {"CI_COMMIT_REF_NAME": "feature", "CI_COMMIT_SHA": "def456"}
    assert ci_git(environ) == {"branch": "feature", "commit": "def456"}


def _side(value: float) -> dict[str, object]:
    return {"value": value, "unit": "us", "value_base": value * 1e-6, "sample_count": 5}


def test_the_summary_shows_the_figures_the_verdict_compares_and_says_which() -> None:
    """A pull request's means were 5.836 µs on main and 5.152 µs on the branch, yet the
    change read +4.2 %: it is the change of the runs' medians, which the table now shows."""
    run = {"branch": "main", "commit": "a1b2c3", "hardware_name": "ci"}
    item = {
        "benchmark": "BenchmarkParse",
        "params": {},
        "language": "go",
        "metric": "time_per_op",
        "base_unit": "s",
        "baseline": _side(5.836),
        "contender": _side(5.152),
        "relative_change": 0.042,
        "change": "+4.2% (unchanged)",
        "interval": [-0.01, 0.095],
        "verdict": "unchanged",
        "basis": {
            "compared": {
                "baseline": {"value": 4.95e-6, "of": "samples_median", "label": "median of 5"},
                "contender": {"value": 5.1579e-6, "of": "samples_median", "label": "median of 5"},
            },
            "text": "5 vs 5 samples; t-test p = 0.2; compares medians of samples",
        },
        "history_path": "/history?series=1&series=2",
    }
    comparison = {
        "contender": {**run, "branch": "fix-parse"},
        "baseline": run,
        "branch": "main",
        "counts": {"regression": 0, "improvement": 0, "unchanged": 1, "new": 0, "missing": 0},
        "items": [item],
        "new": [],
        "compare_path": "/compare?baseline=a&contender=b",
        "rule": {"significance": 0.01, "min_relative_change": 0.02, "confidence": 0.99},
    }
    text = render_summary(comparison, SummaryContext("http://dash", None))
    (row,) = [line for line in text.splitlines() if line.startswith("| BenchmarkParse")]
    assert "| 4.95 µs (median of 5) | 5.158 µs (median of 5) | +4.2% (unchanged) |" in row
    assert "5.836" not in text
    assert "5.152" not in text
    assert "Each side shows the figure its verdict compares" in text
    # Without a label (a value compared as it is) the figure stands alone.
    del item["basis"]["compared"]["baseline"]["label"]
    text = render_summary(comparison, SummaryContext("http://dash", None))
    assert "| 4.95 µs | 5.158 µs (median of 5) |" in text
    # A bandwidth reads in the unit the run reported, not in the base unit's B/s.
    item.update(metric="throughput", base_unit="B/s")
    item["baseline"]["unit"] = item["contender"]["unit"] = "MB/s"
    item["basis"]["compared"]["baseline"]["value"] = 363_300.0
    item["basis"]["compared"]["contender"]["value"] = 290_000.0
    text = render_summary(comparison, SummaryContext("http://dash", None))
    assert "| 0.3633 MB/s | 0.29 MB/s (median of 5) |" in text
