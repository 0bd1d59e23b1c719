"""gunicorn's settings for the image (``gunicorn -c python:clabber_league.config.gunicorn``).

The command line still wins over anything here (docker/Dockerfile passes the bind address,
the worker class and the timeouts). What this file adds:

- **the access log** (``GUNICORN_ACCESS_LOG=true``; off by default, because the
  application writes its own access line, ``clabber_league.access``, with the request id,
  the client's real address as the login lockouts see it, the user and the duration). When
  on, gunicorn's line has the duration in microseconds and milliseconds, the
  ``X-Forwarded-For`` the proxy sent and the response's ``X-Request-ID``;
- **Prometheus metrics**, only when ``METRICS_ADDRESS`` is set (``host:port``, e.g.
  ``127.0.0.1:9100`` or the address of the private network the Prometheus server is on):
  every worker counts its requests (django-prometheus' middleware, which the settings add
  only then) into files under ``PROMETHEUS_MULTIPROC_DIR``, and the master process serves
  their sum at ``http://METRICS_ADDRESS/metrics``, a port of its own that the public proxy
  never forwards. Unset (the default), nothing listens and ``/metrics`` is no URL of the
  site.
"""

import os
import shutil
import tempfile

from clabber_league.core.metrics import metrics_address

_METRICS = metrics_address()
if _METRICS is not None:
    # Before prometheus_client is imported anywhere (the application is loaded after this
    # file): the workers' counters go to files, which the master adds up.
    os.environ.setdefault(
        "PROMETHEUS_MULTIPROC_DIR",
        os.path.join(tempfile.gettempdir(), f"clabber-metrics-{os.getpid()}"),
    )

_ACCESS = os.environ.get("GUNICORN_ACCESS_LOG", "").lower() in {"1", "true", "yes"}
accesslog = "-" if _ACCESS else None
access_log_format = (
    '%(h)s "%({x-forwarded-for}i)s" %(t)s "%(r)s" %(s)s %(B)s %(D)sus %(M)sms '
    '"%(f)s" "%(a)s" rid=%({x-request-id}o)s'
)
errorlog = "-"


def on_starting(server):
    if _METRICS is not None:
        folder = os.environ["PROMETHEUS_MULTIPROC_DIR"]
        shutil.rmtree(folder, ignore_errors=True)  # counters of an earlier run are stale
        os.makedirs(folder, exist_ok=True)


def when_ready(server):
    if _METRICS is not None:
        from clabber_league.core.metrics import serve_metrics

        host, port = _METRICS
        serve_metrics(host, port)
        server.log.info("Prometheus metrics on http://%s:%s/metrics", host, port)


def child_exit(server, worker):
    if _METRICS is not None:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
