"""Bounded capture of what a solver under audit prints.

The worker's stdout and stderr are pipes to the auditing process; one reader
thread per pipe drains it into a :class:`CapturedStream`, which keeps the
first and the last :data:`KEEP_BYTES` bytes and counts the rest. Whatever the
solver prints (50 MB per call, binary junk), the auditor's own streams stay
clean and its memory stays bounded; the report says how much was printed.
"""

from __future__ import annotations

import os
import select
import threading
from dataclasses import dataclass

KEEP_BYTES = 4096
"""Bytes kept from the start and from the end of each stream."""

_CHUNK = 1 << 16


@dataclass(frozen=True)
class StreamSummary:
    """How much a stream received, with its first and last bytes (decoded, replaced)."""

    name: str
    total_bytes: int
    head: str
    tail: str

    def describe(self) -> str:
        """``'stdout: 52428800 bytes'``."""
        return f"{self.name}: {self.total_bytes} bytes"


class CapturedStream:
    """The first and last :data:`KEEP_BYTES` of everything written to one stream.

    Several pipes (one per worker started) may feed it; each is drained by a
    daemon thread started with :meth:`drain`.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.total_bytes = 0
        self._head = bytearray()
        self._tail = bytearray()
        self._lock = threading.Lock()
        self._threads: list[tuple[threading.Thread, threading.Event]] = []

    def add(self, data: bytes) -> None:
        """Account for ``data``: keep what fits in the head, then the latest tail."""
        with self._lock:
            self.total_bytes += len(data)
            room = KEEP_BYTES - len(self._head)
            if room > 0:
                self._head += data[:room]
                data = data[room:]
            if data:
                self._tail = (self._tail + data)[-KEEP_BYTES:]

    def drain(self, fd: int) -> None:
        """Read pipe ``fd`` in a thread until end of file or :meth:`stop`, then close it."""
        stop = threading.Event()
        thread = threading.Thread(
            target=self._read, args=(fd, stop), name=f"capture {self.name}", daemon=True
        )
        thread.start()
        self._threads.append((thread, stop))

    def _read(self, fd: int, stop: threading.Event) -> None:
        try:
            while True:
                ready, _, _ = select.select([fd], [], [], 0.1)
                if not ready:
                    if stop.is_set():
                        return
                    continue
                data = os.read(fd, _CHUNK)
                if not data:
                    return
                self.add(data)
        finally:
            os.close(fd)

    def stop(self, grace: float = 1.0) -> None:
        """Stop every reader once its pipe is empty (or after ``grace`` seconds)."""
        for thread, stop in self._threads:
            stop.set()
            thread.join(grace)
        self._threads = [(thread, stop) for thread, stop in self._threads if thread.is_alive()]

    def summary(self) -> StreamSummary:
        """What was captured so far."""
        with self._lock:
            return StreamSummary(
                self.name,
                self.total_bytes,
                self._head.decode(errors="replace"),
                self._tail.decode(errors="replace"),
            )
