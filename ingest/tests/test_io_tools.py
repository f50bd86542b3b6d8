"""fio, sysbench, pgbench on real output."""

from __future__ import annotations

from conftest import parse_fixture, pick


def test_fio_sync_randread() -> None:
    results = parse_fixture("fio/fio_sync_randread.json")
    iops = pick(results, "iops", "sync-randread", op="read")
    assert (iops["value"], iops["unit"], iops["direction"]) == (20907.697434, "ops/s", "higher")
    assert pick(results, "bandwidth")["value"] == 83630
    assert pick(results, "bandwidth")["unit"] == "KiB/s"
    clat = pick(results, "clat")
    assert (clat["value"], clat["unit"]) == (46266.924232, "ns")
    assert clat["stats"]["p99"] == 118272
    assert clat["stats"]["n"] == 62744
    assert pick(results, "clat_p99")["value"] == 118272
    assert (iops["mode"], iops["implementation"]) == ("sync", "fio/sync")
    assert iops["params"] == {
        "iodepth": 1,
        "rw": "randread",
        "bs": "4k",
        "size": "64M",
        "direct": 0,
        "op": "read",
    }


def test_fio_posixaio_is_async_with_its_iodepth() -> None:
    results = parse_fixture("fio/fio_posixaio_randread.json")
    iops = pick(results, "iops")
    assert iops["value"] == 16713.002993
    assert (iops["mode"], iops["params"]["iodepth"]) == ("async", 16)
    assert pick(results, "bandwidth")["value"] == 66852
    assert pick(results, "clat")["value"] == 951206.117677
    assert pick(results, "clat")["stats"]["p99"] == 6127616


def test_fio_json_plus_mixed_rw_gives_both_directions() -> None:
    results = parse_fixture("fio/fio_libaio_randrw_jsonplus.json")
    assert pick(results, "iops", op="read")["value"] == 25360.31984
    assert pick(results, "iops", op="write")["value"] == 25241.87906
    assert pick(results, "iops", op="write")["mode"] == "async"


def test_fio_psync_is_sync_and_idle_directions_are_skipped() -> None:
    results = parse_fixture("fio/fio_psync_randwrite.json")
    assert {r["params"]["op"] for r in results} == {"write"}
    assert pick(results, "iops")["mode"] == "sync"


def test_fio_mode_flag_overrides_inferred_mode() -> None:
    results = parse_fixture("fio/fio_sync_randread.json", mode="async")
    assert pick(results, "iops")["mode"] == "sync"  # parser knows better than a default


def test_sysbench_fileio() -> None:
    results = parse_fixture("sysbench/sysbench_fileio_rndrw.txt")
    assert pick(results, "reads_per_s")["value"] == 57848.60
    assert pick(results, "writes_per_s")["value"] == 38565.73
    assert pick(results, "read_bandwidth")["value"] == 903.88
    assert pick(results, "read_bandwidth")["unit"] == "MiB/s"
    latency = pick(results, "latency_avg")
    assert latency["stats"] == {"min": 0.0, "mean": 0.01, "max": 7.54, "p95": 0.01}
    assert pick(results, "events")["value"] == 300974
    assert latency["benchmark"] == "fileio random r/w"
    assert latency["params"]["block_size"] == "16KiB"


def test_pgbench_tpcb() -> None:
    results = parse_fixture("pgbench/pgbench_tpcb_c4_T3.txt")
    assert pick(results, "tps")["value"] == 249.643744
    assert pick(results, "latency_avg")["value"] == 16.023
    assert pick(results, "transactions")["value"] == 754
    assert pick(results, "failed_transactions")["value"] == 0
    assert pick(results, "initial_connection_time")["value"] == 18.805
    assert pick(results, "tps")["benchmark"] == "TPC-B (sort of)"
    assert pick(results, "tps")["params"] == {
        "scaling_factor": 1,
        "clients": 4,
        "threads": 2,
        "duration_s": 3,
        "query_mode": "simple",
    }


def test_pgbench_select_only() -> None:
    results = parse_fixture("pgbench/pgbench_select_c2_T3.txt")
    assert pick(results, "tps")["value"] == 76129.631595
    assert pick(results, "tps")["benchmark"] == "select only"
