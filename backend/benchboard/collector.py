"""Python's cyclic garbage collector paused while an upload is parsed and stored.

A 100,000-result upload builds a few million objects (its validated model, its series
rows, the rows of its COPY), and as they pile up the collector's passes walk them again
and again: 0.7 s of a 4.6 s upload, in process (bench/README.md). None of them is
garbage before the request ends, and then reference counting frees them; nothing is
lost by not looking for cycles meanwhile.

The collector is one per process, so uploads running at once share the pause: it ends
with the last of them, and a collector that was off before stays off.
"""

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class _Pause:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._holders = 0
        self._resume = False

    @contextmanager
    def __call__(self) -> Iterator[None]:
        with self._lock:
            if self._holders == 0:
                self._resume = gc.isenabled()
                gc.disable()
            self._holders += 1
        try:
            yield
        finally:
            with self._lock:
                self._holders -= 1
                if self._holders == 0 and self._resume:
                    gc.enable()


collector_paused = _Pause()
