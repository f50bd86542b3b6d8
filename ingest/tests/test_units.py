from __future__ import annotations

import pytest

from benchboard_ingest.units import (
    convert_time,
    parse_metric_count,
    parse_number,
    parse_size,
    parse_time,
)
from benchboard_ingest.vocabulary import result_identity


def test_wrk_sizes_are_1024_based() -> None:
    assert parse_size("1.85MB", binary=True) == (1.85, "MiB")
    assert parse_size("62.46KB", binary=True) == (62.46, "KiB")


def test_decimal_sizes_keep_si_units() -> None:
    assert parse_size("1.85MB", binary=False) == (1.85, "MB")


def test_times_keep_the_printed_unit() -> None:
    assert parse_time("2.83ms") == (2.83, "ms")
    assert parse_time("450.35µs") == (450.35, "us")


def test_minutes_become_seconds() -> None:
    assert parse_time("2m") == (120.0, "s")


def test_conversion_is_exact_for_printed_decimals() -> None:
    assert convert_time(1.68, "s", "ms") == 1680.0


def test_counts_use_1000_based_prefixes() -> None:
    assert parse_metric_count("6.47k") == 6470.0
    assert parse_metric_count("211.42") == 211.42


def test_thousands_separators() -> None:
    assert parse_number("10,985.9323") == 10985.9323


@pytest.mark.parametrize("text", ["", "ms", "1.2.3ms", "abc"])
def test_garbage_is_rejected(text: str) -> None:
    with pytest.raises(ValueError, match="not a"):
        parse_time(text)


def test_result_identity_reads_integral_params_as_the_service_does() -> None:
    # The CLI's duplicate warning and the peers' folding key results as the service's
    # fingerprint does: 10000 and 10000.0 name one series, 10000.5 another.
    one = {"benchmark": "b", "params": {"n": 10000}, "language": "go", "metric": "time"}
    same = {**one, "params": {"n": 10000.0}}
    other = {**one, "params": {"n": 10000.5}}
    assert result_identity(one) == result_identity(same)
    assert result_identity(one) != result_identity(other)
    assert result_identity(one, "suite-a") != result_identity(one, "suite-b")
