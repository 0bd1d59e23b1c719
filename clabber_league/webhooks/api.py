"""API of webhooks, for a club's admins only (reads too: a subscription's URL and its
deliveries are the admins' business): subscriptions (list, create, change, pause and
resume with ``active``, delete), a test event, a new secret, and each subscription's
deliveries with their log of tries, re-sent on request. The same services as the page;
the secret is in the answer of the create and of ``rotate-secret`` only (docs/webhooks.md).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from clabber_league.calculator.api import ERROR_BODY
from clabber_league.clubs.api_base import ClubScopedMixin
from clabber_league.core.idempotency import idempotent
from clabber_league.members.api import ManageReadsToo

from . import selectors, services
from .models import SUBSCRIBABLE, Attempt, Delivery, EventType, Subscription

NO_SUCH_WEBHOOK = _("No such webhook in this club.")
EVENT_CHOICES = [(str(c), c.label) for c in SUBSCRIBABLE]


class SubscriptionSerializer(serializers.ModelSerializer):
    url = serializers.CharField(
        max_length=500,
        help_text="Where deliveries are POSTed: http(s), on a public address.",
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENT_CHOICES),
        min_length=1,
        help_text="The events sent to this URL.",
    )
    description = serializers.CharField(max_length=120, required=False, allow_blank=True)
    active = serializers.BooleanField(
        required=False, help_text="false: paused (nothing is sent); true: resumed."
    )
    disabled_at = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text="When the server paused it because its deliveries kept failing.",
    )
    note = serializers.CharField(read_only=True, help_text="Why the server paused it.")
    failing_since = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text="The first failed try since the last delivery that got through.",
    )

    class Meta:
        model = Subscription
        fields = [
            "id",
            "url",
            "description",
            "events",
            "active",
            "disabled_at",
            "note",
            "failing_since",
            "created_at",
        ]
        read_only_fields = ["created_at"]


class SubscriptionSecretSerializer(SubscriptionSerializer):
    secret = serializers.CharField(
        read_only=True,
        help_text="The signing secret (whsec_...): shown in this answer only; keep it.",
    )

    class Meta(SubscriptionSerializer.Meta):
        fields = [*SubscriptionSerializer.Meta.fields, "secret"]


class AttemptSerializer(serializers.ModelSerializer):
    status_code = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="The receiver's HTTP status; null: none."
    )

    class Meta:
        model = Attempt
        fields = ["number", "at", "status_code", "duration_ms", "error"]


class DeliverySerializer(serializers.ModelSerializer):
    event_type = serializers.ChoiceField(choices=EventType.choices, read_only=True)
    status = serializers.ChoiceField(choices=Delivery.Status.choices, read_only=True)
    log = AttemptSerializer(many=True, read_only=True, help_text="Every try, oldest first.")
    next_attempt_at = serializers.DateTimeField(read_only=True, allow_null=True)
    delivered_at = serializers.DateTimeField(read_only=True, allow_null=True)
    payload = serializers.JSONField(read_only=True, help_text="The exact body sent.")

    class Meta:
        model = Delivery
        fields = [
            "id",
            "event_id",
            "event_type",
            "status",
            "attempts",
            "next_attempt_at",
            "created_at",
            "delivered_at",
            "payload",
            "log",
        ]
        read_only_fields = fields


CREATE_EXAMPLE = OpenApiExample(
    "Results and fixtures",
    value={
        "url": "https://example.org/hooks/clabber",
        "events": ["result.confirmed", "fixture.changed"],
        "description": "Our website's results page",
    },
    request_only=True,
)
PAUSE_EXAMPLE = OpenApiExample("Pause", value={"active": False}, request_only=True)


class SubscriptionViewSet(
    ClubScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """A club's webhooks: the URLs its results, fixtures, draws and nights are POSTed to,
    signed (Standard Webhooks). Club admins only."""

    serializer_class = SubscriptionSerializer
    permission_classes = [ManageReadsToo]
    queryset = Subscription.objects.none()
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self) -> QuerySet[Subscription]:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return selectors.subscription_list(club=self.club)

    @extend_schema(
        request=SubscriptionSerializer,
        responses={201: SubscriptionSecretSerializer, 400: ERROR_BODY},
        examples=[CREATE_EXAMPLE],
    )
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Subscribe a URL. The answer holds the signing secret, shown this once."""
        body = SubscriptionSerializer(data=request.data, context=self.get_serializer_context())
        body.is_valid(raise_exception=True)
        data = body.validated_data
        subscription = services.subscription_create(
            club=self.club,
            url=data["url"],
            events=data["events"],
            description=data.get("description", ""),
            user=request.user,
        )
        return Response(
            SubscriptionSecretSerializer(subscription).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        request=SubscriptionSerializer,
        responses={200: SubscriptionSerializer, 400: ERROR_BODY},
        examples=[PAUSE_EXAMPLE],
    )
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Change the URL, events or description; ``active`` pauses and resumes."""
        body = SubscriptionSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        subscription = services.subscription_update(
            subscription=self.get_object(), **body.validated_data
        )
        return Response(SubscriptionSerializer(subscription).data)

    def perform_destroy(self, instance: Subscription) -> None:
        services.subscription_delete(subscription=instance)

    @extend_schema(request=None, responses={202: DeliverySerializer, 400: ERROR_BODY})
    @action(detail=True, methods=["post"])
    def test(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Send a ``webhook.test`` event to this URL now (paused or not); follow its
        delivery's log for the answer."""
        delivery = services.subscription_test(subscription=self.get_object())
        response = Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)
        response["Location"] = request.build_absolute_uri(
            reverse(
                "webhook-delivery-detail",
                kwargs={
                    "club_slug": self.club.slug,
                    "webhook_id": delivery.subscription_id,
                    "pk": delivery.pk,
                },
            )
        )
        return response

    @extend_schema(request=None, responses={200: SubscriptionSecretSerializer})
    @action(detail=True, methods=["post"], url_path="rotate-secret")
    def rotate_secret(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """A new signing secret (the old one stops at once), shown in this answer only."""
        subscription = services.subscription_secret_rotate(subscription=self.get_object())
        return Response(SubscriptionSecretSerializer(subscription).data)


class DeliveryViewSet(
    ClubScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """A subscription's deliveries, newest first, each with its log of tries."""

    serializer_class = DeliverySerializer
    permission_classes = [ManageReadsToo]
    queryset = Delivery.objects.none()

    def get_queryset(self) -> QuerySet[Delivery]:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        try:
            subscription = selectors.subscription_get(
                club=self.club, pk=int(self.kwargs["webhook_id"])
            )
        except Subscription.DoesNotExist as exc:
            raise NotFound(NO_SUCH_WEBHOOK) from exc
        return selectors.delivery_list(subscription=subscription)

    @extend_schema(request=None, responses={202: DeliverySerializer, 409: ERROR_BODY})
    @action(detail=True, methods=["post"])
    def resend(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Send this delivery again now: same id and body, a fresh set of tries."""
        delivery = services.delivery_resend(delivery=self.get_object())
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)
