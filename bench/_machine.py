"""What else the machine is doing while a benchmark runs.

This machine is shared: another process busy on one of the two cores halves what a
benchmark can get, so every bench prints the CPU that *other* processes took during its
run, sampled all the way through (not only before it starts), and calls the run
"disturbed" above ``DISTURBED`` (10% of all CPUs on average). A ratio between two lines
measured interleaved in one run survives a disturbance; an absolute time does not.

"Own" processes are this process, its descendants (gunicorn workers, a locust child), and
the PostgreSQL backends connected to the benchmark's own database. Everything else that
uses CPU is "other". Linux only (``/proc``); elsewhere the figures read as unknown.

    with OtherLoad(databases=["clabber_league_bench_record"]) as load:
        ...  # the measurement
    print(load.summary())
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

DISTURBED = 0.10  # other processes' mean share of all CPUs above which a run is "disturbed"
PROC = Path("/proc")


def cpu_times() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs since boot, from /proc/stat; (0, 0) without it."""
    try:
        fields = [int(v) for v in (PROC / "stat").read_text().split()[1:9]]
    except (OSError, ValueError):
        return 0, 0
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


def _stat(pid: int) -> list[str] | None:
    try:
        return (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _ticks(fields: list[str]) -> int:
    # after the command: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14)
    return int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])


def _postgres_backends(databases: list[str]) -> set[int]:
    if not databases:
        return set()
    try:
        import psycopg
    except ImportError:
        return set()
    url = os.environ.get("BENCH_ADMIN_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=2) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = ANY(%s)", [databases]
            ).fetchall()
    except Exception:  # no PostgreSQL: nothing of ours runs there
        return set()
    return {pid for (pid,) in rows}


class OtherLoad:
    """Samples, every ``interval`` seconds, the CPU taken by processes that are not ours."""

    def __init__(self, *, databases: list[str] | None = None, interval: float = 0.5) -> None:
        self.databases = list(databases or [])
        self.interval = interval
        self.samples: list[float] = []  # other processes' share of all CPUs, per interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._backends: set[int] = set()
        self._backends_at = 0.0
        self.load_average: tuple[float, float, float] | None = None
        self.started = 0.0
        self.seconds = 0.0

    # -- which processes are ours -----------------------------------------------------------
    def _own_ticks(self) -> dict[int, int]:
        me = os.getpid()
        parents: dict[int, int] = {}
        ticks: dict[int, int] = {}
        for entry in PROC.iterdir():
            if not entry.name.isdigit():
                continue
            fields = _stat(int(entry.name))
            if fields is None:
                continue
            parents[int(entry.name)] = int(fields[1])
            ticks[int(entry.name)] = _ticks(fields)
        now = time.monotonic()
        if now - self._backends_at > 2:  # new connections appear now and then; cheap enough
            self._backends = _postgres_backends(self.databases)
            self._backends_at = now
        own = {me} | self._backends
        changed = True
        while changed:  # descendants of this process
            changed = False
            for pid, ppid in parents.items():
                if ppid in own and pid not in own:
                    own.add(pid)
                    changed = True
        return {pid: ticks[pid] for pid in own if pid in ticks}

    def _run(self) -> None:
        before = cpu_times()
        own_before = self._own_ticks()
        while True:
            stopped = self._stop.wait(self.interval)
            after = cpu_times()
            own_after = self._own_ticks()
            total = after[1] - before[1]
            if total > 0:
                own = sum(max(0, t - own_before.get(pid, t)) for pid, t in own_after.items())
                other = max(0, (after[0] - before[0]) - own)
                self.samples.append(min(1.0, other / total))
            before, own_before = after, own_after
            if stopped:  # the last, partial interval counts too
                return

    # -- the context manager ----------------------------------------------------------------
    def __enter__(self) -> OtherLoad:
        self.started = time.monotonic()
        if cpu_times()[1]:
            self._thread = threading.Thread(target=self._run, name="other-load", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.monotonic() - self.started
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        try:
            self.load_average = os.getloadavg()
        except OSError:
            self.load_average = None

    # -- the figures ------------------------------------------------------------------------
    @property
    def mean(self) -> float | None:
        return sum(self.samples) / len(self.samples) if self.samples else None

    @property
    def peak(self) -> float | None:
        return max(self.samples) if self.samples else None

    @property
    def disturbed(self) -> bool:
        return self.mean is not None and self.mean > DISTURBED

    def summary(self) -> str:
        if self.mean is None:
            return "other processes' CPU during the run: unknown (no /proc)"
        cpus = os.cpu_count() or 1
        verdict = "DISTURBED" if self.disturbed else "undisturbed"
        loadavg = (
            " load average {:.2f} {:.2f} {:.2f};".format(*self.load_average)
            if self.load_average
            else ""
        )
        return (
            f"other processes' CPU during the run: mean {self.mean:.0%}, peak {self.peak:.0%} "
            f"of {cpus} CPUs, {len(self.samples)} samples in {self.seconds:.0f} s;{loadavg} "
            f"{verdict} "
            f"(threshold {DISTURBED:.0%})"
        )
