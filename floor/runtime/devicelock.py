"""One process owns a floor's devices. A second `flask floor devices` (started by mistake, or kept
as a standby) waits for the lock instead of fighting over the ports and reporting every working
device as disconnected.

PostgreSQL: a session advisory lock on a connection kept open (the server frees it when the holder
dies, even by SIGKILL). SQLite (the embedded default): an exclusive flock on a file beside the
database, freed by the kernel in the same case.
"""
from __future__ import annotations

import fcntl
import logging
import os
import socket
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

from floor import health
from floor.models import ServiceHeartbeat

log = logging.getLogger(__name__)
LOCK_KEY = 0x466C6F6F72446576   # "FloorDev": advisory locks are per database, so per floor
HOLDER = "device-process"          # the heartbeat row naming the holder


class DeviceLock:
    def __init__(self, engine: Engine, instance_path: str) -> None:
        self.engine = engine
        self.instance_path = instance_path
        self._conn: Connection | None = None
        self._fd: int | None = None

    @property
    def postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    def _lock_path(self) -> Path:
        db = self.engine.url.database
        if db and db != ":memory:":
            return Path(f"{db}.devices.lock")
        return Path(self.instance_path) / "devices.lock"

    def try_acquire(self) -> bool:
        if self.held():
            return True
        if self.postgres:
            conn = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            try:
                if conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": LOCK_KEY}).scalar():
                    self._conn = conn
            finally:
                if self._conn is None:
                    conn.close()
        else:
            fd = os.open(self._lock_path(), os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self._fd = fd
            except OSError:
                os.close(fd)
        if self.held():
            self._announce()
        return self.held()

    def held(self) -> bool:
        """Still ours: on PostgreSQL the lock lives as long as its connection."""
        if self._fd is not None:
            return True
        if self._conn is None:
            return False
        try:
            self._conn.execute(text("SELECT 1"))
            return True
        except Exception:
            log.error("device lock: the database connection holding it is gone")
            try:
                self._conn.invalidate()
            except Exception:
                pass
            self._conn = None
            return False

    def release(self) -> None:
        if self._conn is not None:
            try:
                self._conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": LOCK_KEY})
                self._conn.close()
            except Exception:
                pass
            self._conn = None
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def _announce(self) -> None:
        with Session(self.engine) as s:
            health.beat(s, HOLDER, {"host": socket.gethostname(), "pid": os.getpid(),
                                    "since": datetime.now(timezone.utc).isoformat()})
            s.commit()

    def beat(self) -> None:
        """Keep the holder's heartbeat fresh (so /healthz can tell a device process that died)."""
        with Session(self.engine) as s:
            row = s.get(ServiceHeartbeat, HOLDER)
            info = dict(row.info or {}) if row is not None else {}
            if info.get("pid") != os.getpid() or info.get("host") != socket.gethostname():
                info = {"host": socket.gethostname(), "pid": os.getpid(),
                        "since": datetime.now(timezone.utc).isoformat()}
            health.beat(s, HOLDER, info)
            s.commit()

    def holder(self) -> str:
        """Who holds it, as its last heartbeat says."""
        with Session(self.engine) as s:
            row = s.get(ServiceHeartbeat, HOLDER)
            if row is None or not row.info:
                return "another process"
            i = row.info
            return f"pid {i.get('pid')} on host {i.get('host')} (since {i.get('since')})"
