"""Where a webhook may be sent: only http(s), and never to this machine or its network.

A URL is refused when its host is, or resolves to, any address that is not public:
loopback (127.0.0.0/8, ::1), link-local (169.254.0.0/16, fe80::/10: the cloud metadata
service), private (10/8, 172.16/12, 192.168/16, fc00::/7), carrier-grade NAT, multicast,
reserved or unspecified, and the IPv6 forms that embed one of those (IPv4-mapped, 6to4,
NAT64). Every address the name resolves to must be public. The check runs when the
subscription is made and again before each try, since DNS can change; the try then
connects to the very address it checked (``send.post``), so a name cannot be switched
between the check and the connection. ``CLABBER_WEBHOOKS_ALLOW_PRIVATE`` lifts the address
rule (the tests' receiving server on 127.0.0.1; a site whose receiver is on its own LAN).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.utils.translation import gettext_lazy as _

SCHEMES = ("http", "https")

URL_SCHEME = _("Only http:// and https:// URLs can receive webhooks.")
URL_HOST = _("This URL has no host name.")
URL_CREDENTIALS = _("Put no user name or password in the URL; the signature proves the sender.")
URL_UNRESOLVED = _("{host} could not be found (DNS): check the address.")
URL_PRIVATE = _(
    "{host} is a private, loopback or link-local address ({address}): webhooks go only to "
    "addresses on the public internet."
)


class UnsafeURL(ValueError):
    """A URL that may not receive webhooks; the message says why, for a person."""


@dataclass(frozen=True)
class Target:
    """Where one try goes: the URL's parts and the address it was checked to reach."""

    scheme: str
    host: str
    port: int
    path: str  # with the query
    address: str


def public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour
        if embedded is None and ip in ipaddress.IPv6Network("64:ff9b::/96"):
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None and not public(str(embedded)):
            return False
    return ip.is_global and not ip.is_multicast


def _resolve(host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise UnsafeURL(URL_UNRESOLVED.format(host=host)) from exc
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def target(url: str, *, allow_private: bool = False) -> Target:
    """Check ``url`` and resolve it; raises :class:`UnsafeURL` saying why it is refused."""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in SCHEMES:
        raise UnsafeURL(str(URL_SCHEME))
    if parts.username or parts.password:
        raise UnsafeURL(str(URL_CREDENTIALS))
    host = parts.hostname
    if not host:
        raise UnsafeURL(str(URL_HOST))
    try:
        port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
    except ValueError as exc:
        raise UnsafeURL(str(URL_HOST)) from exc
    addresses = _resolve(host, port)
    if not allow_private:
        for address in addresses:
            if not public(address):
                raise UnsafeURL(URL_PRIVATE.format(host=host, address=address))
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(parts.scheme.lower(), host, port, path, addresses[0])
