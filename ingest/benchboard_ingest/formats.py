"""The format registry: every name the CLI and the service accept, and its parser."""

from __future__ import annotations

from typing import Protocol

from .model import ParseContext, ParsedFile, Result
from .parsers import (
    ab,
    asv,
    autocannon,
    benchmarkdotnet,
    benchmarkjs,
    bmf,
    conbench,
    contract,
    criterion,
    dart,
    fio,
    gab,
    gbench,
    gotest,
    hey,
    hyperfine,
    jmh,
    lnt,
    pgbench,
    pyperf,
    pytest_benchmark,
    sysbench,
    tinybench,
    wrk,
)


class Parser(Protocol):
    """A pure parser: the text of one file in, contract results out (with what it left
    out, for the formats of other trackers, whose records can hold failures)."""

    def __call__(self, raw: str, *, context: ParseContext) -> list[Result] | ParsedFile: ...


PARSERS: dict[str, Parser] = {
    "wrk": wrk.parse,
    "ab": ab.parse,
    "ab-csv": ab.parse_percentiles,
    "fio": fio.parse,
    "hyperfine": hyperfine.parse,
    "pytest-benchmark": pytest_benchmark.parse,
    "go": gotest.parse,
    "go-json": gotest.parse_json,
    "google-benchmark": gbench.parse,
    "jmh": jmh.parse,
    "criterion": criterion.parse,
    "criterion-benchmark": criterion.parse_benchmark_json,
    "criterion-stdout": criterion.parse_stdout,
    "pyperf": pyperf.parse,
    "pgbench": pgbench.parse,
    "sysbench": sysbench.parse,
    "hey": hey.parse,
    "autocannon": autocannon.parse,
    "tinybench": tinybench.parse,
    "tinybench-json": tinybench.parse_json,
    "benchmarkjs": benchmarkjs.parse,
    "dart": dart.parse,
    "benchmarkdotnet": benchmarkdotnet.parse,
    "bmf": bmf.parse,
    "gab-custom": gab.parse_custom,
    "asv": asv.parse,
    "conbench": conbench.parse,
    "lnt": lnt.parse,
    "contract": contract.parse,
}

FORMATS: list[str] = list(PARSERS)


def run_parser(name: str, raw: str, context: ParseContext) -> ParsedFile:
    parsed = PARSERS[name](raw, context=context)
    return parsed if isinstance(parsed, ParsedFile) else ParsedFile(parsed)
