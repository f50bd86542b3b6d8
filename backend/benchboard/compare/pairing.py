"""Which sync series pairs with which async series. Pure, so it is tested directly.

Two series pair when they share suite, benchmark, language, hardware and metric and
their params agree on every key both have. Mode-specific knobs stay apart: fio's
async run adds `iodepth`, and its implementation (`fio/posixaio`) differs from the
sync one (`fio/sync`) because the engine *is* the mode. So an async series of the
same implementation is preferred, and only when none exists does the pair cross
implementations.
"""

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple


class Candidate(NamedTuple):
    """A series as pairing reads it (a tuple: a frozen dataclass took 2.5 us a series to
    build, a twelfth of a 100M answer's pairing)."""

    series_id: int
    suite: str
    benchmark: str
    language: str
    hardware: str
    metric: str
    mode: str
    implementation: str | None
    params: Mapping[str, Any]

    def group_key(self) -> tuple[str, str, str, str, str]:
        return (self.suite, self.benchmark, self.language, self.hardware, self.metric)


def params_compatible(left: Mapping[str, Any], right: Mapping[str, Any]) -> bool:
    if left.keys() == right.keys():  # the usual case: one comparison in C
        return left == right
    return all(left[key] == right[key] for key in left.keys() & right.keys())


def pair_modes(candidates: Sequence[Candidate]) -> list[tuple[Candidate, Candidate]]:
    """(sync, async) pairs, in the order the sync series were given."""
    asyncs: dict[tuple[str, ...], list[Candidate]] = defaultdict(list)
    for candidate in candidates:
        if candidate.mode == "async":
            asyncs[candidate.group_key()].append(candidate)
    pairs: list[tuple[Candidate, Candidate]] = []
    for sync in (c for c in candidates if c.mode == "sync"):
        partners = [a for a in asyncs[sync.group_key()] if params_compatible(sync.params, a.params)]
        same_implementation = [a for a in partners if a.implementation == sync.implementation]
        pairs.extend((sync, partner) for partner in same_implementation or partners)
    return pairs
