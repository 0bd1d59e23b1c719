"""Site-wide records: the responses kept for ``Idempotency-Key`` replays."""

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone


class IdempotencyRecord(models.Model):
    """The first response to a request sent with an ``Idempotency-Key`` by one caller.

    A retry with the same key and the same request gets this response again; the same
    key with another request is refused (422). Kept for ``IDEMPOTENCY_RETENTION``.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="idempotency_records"
    )
    key = models.CharField(max_length=80)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of method, path and body.")
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=500)
    status = models.PositiveSmallIntegerField()
    body = models.JSONField(encoder=DjangoJSONEncoder, null=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_per_caller")
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} ({self.key})"
