"""A real HTTP server on 127.0.0.1 for upload tests: answers a scripted list of
statuses (each alone, or with its headers) and records every body it received and when."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Answer = int | tuple[int, dict[str, str]]


class RecordingServer:
    def __init__(self, statuses: list[Answer]) -> None:
        self.statuses = list(statuses)
        self.arrivals: list[float] = []  # time.monotonic() of each request
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.paths: list[str] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> RecordingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                recorder.arrivals.append(time.monotonic())
                length = int(self.headers["Content-Length"])
                recorder.bodies.append(json.loads(self.rfile.read(length)))
                recorder.headers.append(dict(self.headers))
                recorder.paths.append(self.path)
                answer = recorder.statuses.pop(0) if recorder.statuses else 201
                status, headers = answer if isinstance(answer, tuple) else (answer, {})
                body = json.dumps({"id": recorder.bodies[-1].get("id")}).encode()
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler
