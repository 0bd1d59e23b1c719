"""An https try connects to the address the guard checked, with the URL's host name in the
TLS handshake and the certificate check: a certificate for that name is accepted, one
for another name or from an unknown issuer is a failed try (no redirect, no fallback)."""

from __future__ import annotations

import datetime as dt
import http.server
import ssl
import threading
from collections.abc import Iterator

import pytest
import urllib3
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from clabber_league.webhooks import guard, send


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory) -> tuple[str, str]:
    """A self-signed certificate for ``hooks.example.org`` and its key, as files."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "hooks.example.org")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("hooks.example.org")]), False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )
    folder = tmp_path_factory.mktemp("tls")
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return str(cert_file), str(key_file)


@pytest.fixture
def https_server(tls_files) -> Iterator[tuple[int, list[str]]]:
    """An https server on 127.0.0.1: its port, and the Host headers it received."""
    hosts: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            hosts.append(self.headers["Host"])
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*tls_files)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port, hosts
    server.shutdown()
    server.server_close()


@pytest.fixture
def trusting(monkeypatch, tls_files) -> None:
    """This process trusts the test certificate (as a site trusts the public CAs)."""
    real = urllib3.HTTPSConnectionPool
    monkeypatch.setattr(
        urllib3, "HTTPSConnectionPool", lambda *a, **k: real(*a, ca_certs=tls_files[0], **k)
    )


def test_https_reaches_the_checked_address_under_the_urls_name(https_server, trusting):
    port, hosts = https_server
    target = guard.Target("https", "hooks.example.org", port, "/hook", "127.0.0.1")
    answer = send.post(target, body=b"{}", headers={}, timeout=5)
    assert (answer.status_code, answer.error) == (200, "")
    assert hosts == [f"hooks.example.org:{port}"]


def test_a_certificate_for_another_name_is_a_failed_try(https_server, trusting):
    port, hosts = https_server
    target = guard.Target("https", "other.example.org", port, "/hook", "127.0.0.1")
    answer = send.post(target, body=b"{}", headers={}, timeout=5)
    assert answer.status_code is None
    assert "other.example.org" in answer.error
    assert hosts == []


def test_a_certificate_from_an_unknown_issuer_is_a_failed_try(https_server):
    port, hosts = https_server
    target = guard.Target("https", "hooks.example.org", port, "/hook", "127.0.0.1")
    answer = send.post(target, body=b"{}", headers={}, timeout=5)
    assert answer.status_code is None
    assert "CERTIFICATE_VERIFY_FAILED" in answer.error
    assert hosts == []
