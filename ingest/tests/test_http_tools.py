"""wrk, ab, hey and autocannon on real output (figures from tool-outputs/README.md)."""

from __future__ import annotations

from conftest import parse_fixture, pick


def test_wrk_with_latency_distribution() -> None:
    results = parse_fixture("wrk/wrk_async_aiohttp_latency.txt")
    assert pick(results, "throughput")["value"] == 12869.70
    transfer = pick(results, "transfer_rate")
    assert (transfer["value"], transfer["unit"], transfer["direction"]) == (1.85, "MiB/s", "higher")
    assert pick(results, "total_requests")["value"] == 38697
    assert pick(results, "data_read")["value"] == 5.57
    avg = pick(results, "latency_avg")
    assert (avg["value"], avg["unit"], avg["direction"]) == (2.83, "ms", "lower")
    assert avg["stats"] == {
        "mean": 2.83,
        "stddev": 2.34,
        "max": 26.04,
        "p50": 1.99,
        "p75": 3.27,
        "p90": 5.55,
        "p99": 12.41,
    }
    assert pick(results, "latency_p99")["value"] == 12.41
    per_thread = pick(results, "throughput_per_thread")
    assert per_thread["stats"] == {"mean": 6470.0, "stddev": 2350.0, "max": 13240.0}
    assert avg["params"] == {"connections": 32, "wrk_threads": 2, "duration_s": 3}


def test_wrk_mixed_units_are_converted_to_the_average_unit() -> None:
    results = parse_fixture("wrk/wrk_sync_threading.txt")
    avg = pick(results, "latency_avg")
    assert avg["value"] == 86.09
    assert avg["stats"]["max"] == 1680.0  # printed "1.68s"
    assert pick(results, "transfer_rate")["unit"] == "KiB/s"
    assert pick(results, "throughput")["value"] == 416.89


def test_wrk_errors_are_their_own_lower_is_better_metrics() -> None:
    results = parse_fixture("wrk/wrk_errors_latency.txt")
    assert pick(results, "errors_read")["value"] == 181
    assert pick(results, "non_2xx_responses")["value"] == 359
    assert pick(results, "errors_connect")["value"] == 0
    assert all(
        pick(results, m)["direction"] == "lower"
        for m in ("errors_read", "non_2xx_responses", "timeouts")
    )
    assert pick(parse_fixture("wrk/wrk_timeouts.txt"), "timeouts")["value"] == 13


def test_ab_text() -> None:
    results = parse_fixture("ab/ab_async_aiohttp_n2000.txt")
    assert pick(results, "throughput")["value"] == 715.00
    assert pick(results, "time_per_request")["value"] == 44.755
    assert pick(results, "total_requests")["value"] == 2000
    latency = pick(results, "latency_avg")
    assert (latency["stats"]["p50"], latency["stats"]["p99"]) == (32, 476)
    assert latency["implementation"] == "Python/3.11"
    assert pick(results, "transfer_rate")["unit"] == "KiB/s"


def test_ab_sync_text_and_percentile_csv() -> None:
    results = parse_fixture("ab/ab_sync_threading_n2000.txt")
    assert pick(results, "throughput")["value"] == 257.82
    assert pick(results, "time_per_request")["value"] == 124.118
    assert pick(results, "total_time")["value"] == 7.757
    assert pick(results, "latency_avg")["stats"]["max"] == 7732
    assert pick(results, "latency_avg")["implementation"] == "BaseHTTP/0.6"
    csv = parse_fixture("ab/ab_sync_threading_n2000_percentiles.csv")
    assert pick(csv, "latency_p99")["value"] == 1866.468
    assert pick(csv, "latency_max")["value"] == 7732.318


def test_ab_failed_and_non_2xx() -> None:
    results = parse_fixture("ab/ab_errors.txt")
    assert pick(results, "failed_requests")["value"] == 43
    assert pick(results, "non_2xx_responses")["value"] == 85


def test_hey_latencies_in_seconds() -> None:
    results = parse_fixture("hey/hey_errors.txt")
    assert pick(results, "throughput")["value"] == 203.8519
    avg = pick(results, "latency_avg")
    assert (avg["value"], avg["unit"]) == (0.0367, "s")
    assert avg["stats"]["p99"] == 0.0480
    assert pick(results, "non_2xx_responses")["value"] == 133
    assert pick(results, "total_requests")["value"] == 398
    assert pick(results, "errors_connection")["value"] == 2


def test_autocannon_json() -> None:
    results = parse_fixture("autocannon/autocannon_errors.json")
    assert pick(results, "non_2xx_responses")["value"] == 124
    assert pick(results, "throughput")["value"] == 186.5
    assert pick(results, "latency_avg")["unit"] == "ms"
    assert pick(results, "transfer_rate")["unit"] == "B/s"
