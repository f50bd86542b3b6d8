"""A ratio worded as readers say it."""

import pytest

from benchboard.findings.wording import format_factor, word_ratio


@pytest.mark.parametrize(
    ("factor", "text"),
    [(2.0873, "2.09×"), (66.666, "66.7×"), (2.8, "2.8×"), (1.5, "1.5×"), (1234.5, "1,230×")],
)
def test_factor_has_three_significant_digits(factor: float, text: str) -> None:
    assert format_factor(factor) == text


def sentence(ratio: float, *, base_unit: str, direction: str, metric: str = "m") -> str:
    text, _, _ = word_ratio(
        ratio,
        numerator="A",
        denominator="B",
        metric=metric,
        base_unit=base_unit,
        direction=direction,  # type: ignore[arg-type]
        context="for X",
    )
    return text


def test_a_larger_time_is_slower_and_a_smaller_one_faster() -> None:
    assert sentence(2.0873, base_unit="s", direction="lower") == "A 2.09× slower than B for X"
    assert sentence(0.5, base_unit="s", direction="lower") == "A 2× faster than B for X"


def test_a_larger_rate_is_faster() -> None:
    assert sentence(61000 / 18000, base_unit="req/s", direction="higher") == (
        "A 3.39× faster than B for X"
    )
    assert sentence(0.25, base_unit="ops/s", direction="higher") == "A 4× slower than B for X"


def test_counts_say_more_or_fewer_of_the_metric() -> None:
    assert sentence(40000 / 600, base_unit="count", direction="lower", metric="a_b") == (
        "A 66.7× more a b than B for X"
    )
    assert sentence(0.5, base_unit="count", direction="higher", metric="hits") == (
        "A 2× fewer hits than B for X"
    )


def test_a_factor_that_rounds_to_one_is_about_the_same() -> None:
    text, verdict, factor = word_ratio(
        1.0004,
        numerator="A",
        denominator="B",
        metric="m",
        base_unit="s",
        direction="lower",
        context=None,
    )
    assert (text, verdict, factor) == ("A about the same as B", "same", 1.0)


def test_a_ratio_whose_interval_holds_one_is_about_the_same() -> None:
    text, verdict, factor = word_ratio(
        87.5 / 85.5,
        numerator="resqlite",
        denominator="sqlite_async",
        metric="time_per_op_median",
        base_unit="s",
        direction="lower",
        context="per lookup",
        interval_holds_one="range",
    )
    assert (
        text
        == "resqlite about the same as sqlite_async per lookup: 1.02×, within the reported ranges"
    )
    assert verdict == "same"
    assert factor == pytest.approx(87.5 / 85.5)
