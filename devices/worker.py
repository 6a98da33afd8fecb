"""The tables' workers: each table's database work runs on a thread of its own, in the order it
arrived, so the reader that heard it is never kept waiting (a bet burst or a settlement at one
table stalls neither the line nor another table)."""
from __future__ import annotations

import logging
import queue
import threading
from collections import deque
from typing import Callable, Hashable

from devices import priority

log = logging.getLogger(__name__)
Job = Callable[[], None]


class Worker:
    """One thread running its jobs one after another; a failing job is logged and counted."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.failures = 0
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._idle = threading.Condition()
        self._pending = 0
        self._stamps: deque[float | None] = deque()   # each job's line arrival (monotonic), in order
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, job: Job, stamp: float | None = None) -> None:
        """``stamp``: when the bytes the job is about arrived (monotonic), so ``behind`` can tell how
        far the work is behind the line."""
        with self._idle:
            self._pending += 1
            self._stamps.append(stamp)
        self._jobs.put(job)

    def oldest(self) -> float | None:
        """The arrival of the oldest bytes whose work is not done yet (None: nothing waiting)."""
        with self._idle:
            return next((s for s in self._stamps if s is not None), None)

    def _run(self) -> None:
        priority.normal()   # started by a reader, maybe real-time: the database work runs at normal
        while (job := self._jobs.get()) is not None:
            try:
                job()
            except Exception:   # the job's own transaction rolled back; the raw bytes are kept
                self.failures += 1
                log.exception("%s: a job failed", self.name)
            finally:
                with self._idle:
                    self._pending -= 1
                    self._stamps.popleft()
                    self._idle.notify_all()

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until every job submitted so far has run."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def stop(self, timeout: float = 10.0) -> None:
        self._jobs.put(None)
        self._thread.join(timeout)


class Workers:
    """A worker per key (a table, or the devices' health), started on first use."""

    def __init__(self, prefix: str = "table") -> None:
        self.prefix = prefix
        self._workers: dict[Hashable, Worker] = {}
        self._lock = threading.Lock()

    def submit(self, key: Hashable, job: Job, stamp: float | None = None) -> None:
        with self._lock:
            worker = self._workers.get(key)
            if worker is None:
                worker = self._workers[key] = Worker(f"{self.prefix}-{key}")
        worker.submit(job, stamp)

    def oldest(self, key: Hashable) -> float | None:
        with self._lock:
            worker = self._workers.get(key)
        return None if worker is None else worker.oldest()

    @property
    def failures(self) -> int:
        with self._lock:
            return sum(w.failures for w in self._workers.values())

    def drain(self, timeout: float | None = None) -> bool:
        with self._lock:
            workers = list(self._workers.values())
        return all(w.drain(timeout) for w in workers)

    def stop(self, timeout: float = 10.0) -> None:
        with self._lock:
            workers, self._workers = list(self._workers.values()), {}
        for w in workers:
            w.stop(timeout)
