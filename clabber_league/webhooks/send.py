"""One try of a delivery over HTTP (urllib3), to the address the guard checked.

The connection goes to ``Target.address`` (the name is not looked up again), with the
URL's host name in ``Host`` and, for https, in the TLS server name and certificate check:
so a name switched to a private address after the check (DNS rebinding) is never reached.
No redirect is followed (a 3xx is a failed try), nothing is retried here (the delivery's
schedule does that), and the answer's body is read no further than ``BODY_KEPT`` bytes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import urllib3
from django.utils.translation import gettext as _

from .guard import Target

BODY_KEPT = 1024
USER_AGENT = "ClabberLeague-Webhooks/1"


@dataclass(frozen=True)
class Answer:
    status_code: int | None
    duration_ms: int
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def post(target: Target, *, body: bytes, headers: dict[str, str], timeout: float) -> Answer:
    """POST ``body`` to ``target``; never raises for a network failure (it is the answer)."""
    start = time.monotonic()
    pool_class = (
        urllib3.HTTPSConnectionPool if target.scheme == "https" else urllib3.HTTPConnectionPool
    )
    extra = {}
    if target.scheme == "https":
        extra = {"server_hostname": target.host, "assert_hostname": target.host}
    default_port = 443 if target.scheme == "https" else 80
    host_header = target.host if target.port == default_port else f"{target.host}:{target.port}"
    if ":" in target.host and not host_header.startswith("["):  # an IPv6 literal
        host_header = f"[{target.host}]" + host_header[len(target.host) :]
    pool = pool_class(
        target.address,
        port=target.port,
        timeout=urllib3.Timeout(connect=min(timeout, 5.0), read=timeout),
        retries=False,
        maxsize=1,
        **extra,
    )
    try:
        response = pool.urlopen(
            "POST",
            target.path,
            body=body,
            headers={
                **headers,
                "Host": host_header,
                "Content-Type": "application/json",
                "User-Agent": USER_AGENT,
            },
            redirect=False,
            preload_content=False,
            assert_same_host=False,
        )
        try:
            response.read(BODY_KEPT)
        finally:
            response.release_conn()
        status, error = response.status, ""
    except urllib3.exceptions.HTTPError as exc:
        status, error = None, _describe(exc)
    except OSError as exc:
        status, error = None, f"{type(exc).__name__}: {exc}"[:300]
    finally:
        pool.close()
    return Answer(status, int((time.monotonic() - start) * 1000), error)


def _describe(exc: Exception) -> str:
    errors = urllib3.exceptions
    if isinstance(exc, errors.NewConnectionError):  # a subclass of the connect timeout
        return _("could not connect: {reason}").format(reason=exc.__context__ or exc)[:300]
    if isinstance(exc, errors.ConnectTimeoutError):
        return _("timeout while connecting")
    if isinstance(exc, errors.ReadTimeoutError):
        return _("timeout: no answer in time")
    reason = getattr(exc, "reason", None)
    return f"{type(exc).__name__}: {reason or exc}"[:300]
