"""Prometheus metrics, off unless the operator names an address for them.

``METRICS_ADDRESS=host:port`` turns them on (see ``clabber_league/config/gunicorn.py``): the
settings then add django-prometheus' app and middleware (requests by view, method and
status; latency histograms; exceptions), and gunicorn's master serves every worker's counts
on that address only. Never on the site's own port: a URL there would be public.
"""

from __future__ import annotations

import os
from collections.abc import Mapping


def metrics_address(environ: Mapping[str, str] = os.environ) -> tuple[str, int] | None:
    """``METRICS_ADDRESS`` as ``(host, port)``; None when unset (metrics off)."""
    value = (environ.get("METRICS_ADDRESS") or "").strip()
    if not value:
        return None
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"METRICS_ADDRESS is host:port, e.g. 127.0.0.1:9100, not {value!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def serve_metrics(host: str, port: int) -> None:
    """Serve the sum of every process's counters (prometheus_client's multiprocess mode) on
    ``host:port`` from a thread of this process."""
    from prometheus_client import CollectorRegistry, start_http_server
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    start_http_server(port, addr=host, registry=registry)
