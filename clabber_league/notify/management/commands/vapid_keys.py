"""``manage.py vapid_keys``: a new VAPID key pair for web push, as the settings take it."""

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def key_pair() -> tuple[str, str]:
    """(public, private): the public key as the browser's ``applicationServerKey``
    (uncompressed point, base64url), the private key as pywebpush reads it (the raw
    32-byte scalar, base64url)."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return _b64(public), _b64(private)


class Command(BaseCommand):
    help = "Print a new VAPID key pair for web push (CLABBER_VAPID_* settings)."

    def handle(self, *args, **options):
        public, private = key_pair()
        self.stdout.write(f"CLABBER_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"CLABBER_VAPID_PRIVATE_KEY={private}")
        self.stdout.write("CLABBER_VAPID_SUBJECT=mailto:you@example.org")
