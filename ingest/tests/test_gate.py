from __future__ import annotations

import pytest

from benchboard_ingest.gate import FailOn, format_value, series_label
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
