"""The club laptop on the club's Wi-Fi: ``make run HOST=0.0.0.0`` (or the LAN address).

Phones reach the laptop by its address on the local network, so development settings
(``local.py``) accept that address as a host and as a CSRF origin, over HTTP (``make run``,
port ``PORT``) and over HTTPS (``make run-https``, port ``HTTPS_PORT``, which a service
worker needs off localhost). Nothing here reaches the network: the address is the one the
machine would send from (a UDP socket that is "connected" sends no packet).
"""

from __future__ import annotations

import os
import socket


def lan_address() -> str | None:
    """This machine's address on its local network, or None without one."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))  # no packet is sent: this only picks a route
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def lan_hosts(environ: dict[str, str] | None = None) -> list[str]:
    """The host names phones may use for this laptop: ``CLABBER_LAN_HOST`` (the ``HOST``
    that ``make run`` binds, when it is an address), the LAN address, the machine's name
    and its ``.local`` (mDNS) name."""
    env = os.environ if environ is None else environ
    hosts: list[str] = []
    for host in env.get("CLABBER_LAN_HOST", "").split(","):
        host = host.strip()
        if host and host not in ("0.0.0.0", "::", "127.0.0.1", "localhost"):
            hosts.append(host)
    address = lan_address()
    if address:
        hosts.append(address)
    name = socket.gethostname()
    if name and name != "localhost":
        hosts += [name, f"{name}.local"]
    return list(dict.fromkeys(hosts))


def lan_origins(hosts: list[str], environ: dict[str, str] | None = None) -> list[str]:
    """The CSRF origins of those hosts: ``http://host:PORT`` and ``https://host:HTTPS_PORT``."""
    env = os.environ if environ is None else environ
    port = env.get("PORT") or "8000"
    https_port = env.get("HTTPS_PORT") or "8443"
    origins = []
    for host in hosts:
        origins += [f"http://{host}:{port}", f"https://{host}:{https_port}"]
    return origins
