"""The live feed's processes on gevent (``[server] worker = "gevent"``, the live units set
``FLOOR_SERVER_WORKER=gevent``).

A live process holds hundreds of Socket.IO clients that do nothing but wait for the next update. On
gunicorn's threads worker each of them holds a pool thread, a reader thread and a writer thread for as
long as it stays connected, and every update to every client wakes one of them: at a few hundred
clients a process spends its cores switching threads. On gevent the same clients are greenlets in one
thread. gevent replaces the standard library's sockets, locks and sleeps with its own ("monkey
patching"): that must happen before anything else is imported, so ``python -m floor.runtime.serve``
calls ``patch_if_asked`` first, reading only the configuration."""
from __future__ import annotations

WORKERS = ("threads", "gevent")


def worker(cfg: dict | None = None) -> str:
    """The web process's worker as configured (without building the app)."""
    from config import load_config
    name = str((cfg or load_config())["server"].get("worker") or "threads")
    if name not in WORKERS:
        from config import ConfigError
        raise ConfigError(f"[server] worker must be one of {', '.join(WORKERS)}, not {name!r}")
    return name


def patch_if_asked() -> bool:
    """Patch the standard library for gevent when this process is to run on it."""
    if worker() != "gevent":
        return False
    from gevent import monkey
    monkey.patch_all()
    return True
