"""The detection workers `benchboard serve` runs beside the API, and their lifetime.

Each is a `benchboard worker` subprocess, exactly what an operator runs alone. One that
dies is started again; all are stopped with SIGTERM (they finish their batch) when
`serve` exits, and each also stops by itself if `serve` is gone (killed with SIGKILL).
"""

import logging
import os
import signal
import subprocess
import sys
import threading

logger = logging.getLogger(__name__)

STOP_TIMEOUT_S = 30.0
WATCH_INTERVAL_S = 1.0


class DetectionWorkers:
    def __init__(self, count: int) -> None:
        self.count = count
        self.processes: list[subprocess.Popen[bytes]] = []
        self._stopping = threading.Event()
        self._watcher = threading.Thread(target=self._watch, name="worker-watch", daemon=True)

    def start(self) -> None:
        self.processes = [self._spawn() for _ in range(self.count)]
        if self.processes:
            self._watcher.start()
            logger.info("started %d detection worker(s)", len(self.processes))

    @staticmethod
    def _spawn() -> subprocess.Popen[bytes]:
        argv = [sys.executable, "-m", "benchboard.cli", "worker", "--exit-with-parent"]
        return subprocess.Popen(argv, env=os.environ.copy())

    def _watch(self) -> None:
        while not self._stopping.wait(WATCH_INTERVAL_S):
            for index, process in enumerate(self.processes):
                if process.poll() is not None and not self._stopping.is_set():
                    logger.error(
                        "detection worker %d exited with %d; starting another",
                        process.pid,
                        process.returncode,
                    )
                    self.processes[index] = self._spawn()

    def stop(self) -> None:
        """SIGTERM each, wait for their batches, SIGKILL what is still running."""
        self._stopping.set()
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                logger.error("detection worker %d did not stop; killing it", process.pid)
                process.kill()
                process.wait()
