"""API of members: invitations and disputes (club admins), the scorer's phone handed to
the other side (confirm by PIN, or dispute), and a member's own settings (``/api/me/
settings/``: the confirmation PIN, the name on public pages). The same services as the
pages; a refusal answers ``{"errors": [{"field", "message"}]}`` with its kind's status
(400 invalid, 409 a conflict with what is stored; 429 when PIN tries are throttled).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clabber_league.clubs.api_base import ClubPermission, ClubScopedMixin
from clabber_league.clubs.models import Player, Role
from clabber_league.games.api import GameSerializer
from clabber_league.games.models import Game

from . import selectors, services
from .models import Dispute, Invitation


class ManageReadsToo(ClubPermission):
    """Invitations and disputes are the club admins' business, to read as well."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if not view.club_access.can("manage"):
            from rest_framework.exceptions import PermissionDenied

            from clabber_league.clubs.api_base import NEEDS_ROLE

            if not request.user.is_authenticated:
                return False
            raise PermissionDenied(NEEDS_ROLE)
        return True


class InvitationSerializer(serializers.ModelSerializer):
    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.none(), required=False, allow_null=True
    )
    days = serializers.IntegerField(
        write_only=True, required=False, help_text="How many days the link works (1-90)."
    )
    state = serializers.CharField(source="state_label", read_only=True)
    url = serializers.SerializerMethodField(help_text="The invitation's link, while it is open.")

    class Meta:
        model = Invitation
        fields = [
            "id",
            "email",
            "role",
            "player",
            "note",
            "days",
            "state",
            "url",
            "created_at",
            "expires_at",
            "accepted_at",
            "revoked_at",
        ]
        read_only_fields = ["created_at", "expires_at", "accepted_at", "revoked_at"]

    def get_fields(self) -> dict:
        fields = super().get_fields()
        club = self.context.get("club")
        fields["player"].queryset = club.players.all() if club else Player.objects.none()
        return fields

    def get_url(self, invitation: Invitation) -> str | None:
        if invitation.state() != Invitation.State.OPEN:
            return None
        return services.invitation_url(invitation=invitation, request=self.context.get("request"))


class InvitationViewSet(
    ClubScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Club admins invite people: by email (the link is sent) or by link (``url``, to show
    as a QR code). An invitation works once, until it expires or is revoked."""

    serializer_class = InvitationSerializer
    permission_classes = [ManageReadsToo]
    queryset = Invitation.objects.none()

    def get_queryset(self) -> QuerySet[Invitation]:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return selectors.invitation_list(club=self.club)

    def perform_create(self, serializer: InvitationSerializer) -> None:
        data = serializer.validated_data
        serializer.instance = services.invitation_create(
            club=self.club,
            created_by=self.request.user,
            role=data.get("role", Role.PLAYER),
            email=data.get("email", ""),
            player=data.get("player"),
            note=data.get("note", ""),
            days=data.get("days"),
            request=self.request,
        )

    @extend_schema(request=None, responses={200: InvitationSerializer})
    @action(detail=True, methods=["post"])
    def revoke(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        invitation = self.get_object()
        services.invitation_revoke(invitation=invitation)
        return Response(self.get_serializer(invitation).data)


class DisputeSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(
        source="player.name", read_only=True, default=None, allow_null=True
    )
    is_open = serializers.BooleanField(read_only=True)

    class Meta:
        model = Dispute
        fields = [
            "id",
            "game",
            "player",
            "player_name",
            "reason",
            "raised_at",
            "is_open",
            "resolved_at",
            "resolution",
        ]
        read_only_fields = fields


class ResolveSerializer(serializers.Serializer):
    resolution = serializers.CharField(required=False, allow_blank=True, max_length=1000)


class DisputeViewSet(
    ClubScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Disputed results, open ones first. Resolving one confirms the game in the name of
    the club (after any corrections)."""

    serializer_class = DisputeSerializer
    permission_classes = [ManageReadsToo]
    queryset = Dispute.objects.none()

    def get_queryset(self) -> QuerySet[Dispute]:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return selectors.dispute_list(club=self.club)

    @extend_schema(request=ResolveSerializer, responses={200: DisputeSerializer})
    @action(detail=True, methods=["post"])
    def resolve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        dispute = self.get_object()
        body = ResolveSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        dispute = services.dispute_resolve(
            dispute=dispute,
            user=request.user,
            access=self.club_access,
            resolution=body.validated_data.get("resolution", ""),
        )
        return Response(DisputeSerializer(dispute).data)


class HandoverConfirmSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="The other side's player who confirms.")
    pin = serializers.CharField(max_length=6, help_text="Their confirmation PIN (4-6 digits).")


class HandoverDisputeSerializer(serializers.Serializer):
    player = serializers.IntegerField(required=False, allow_null=True)
    reason = serializers.CharField(max_length=1000)


class HandoverViewSet(ClubScopedMixin, viewsets.GenericViewSet):
    """The scorer's phone, handed to the other side once the game is finished."""

    write_need = "score"
    serializer_class = HandoverConfirmSerializer
    queryset = Game.objects.none()

    def _game(self) -> Game:
        return get_object_or_404(Game.objects.filter(club=self.club), pk=self.kwargs["game_id"])

    @extend_schema(request=HandoverConfirmSerializer, responses={200: GameSerializer})
    @action(detail=False, methods=["post"])
    def confirm(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = self._game()
        body = HandoverConfirmSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        game = services.handover_confirm(
            game=game,
            player_id=body.validated_data["player"],
            pin=body.validated_data["pin"],
            device_user=request.user,
        )
        return Response(GameSerializer(game, context=self.get_serializer_context()).data)

    @extend_schema(request=HandoverDisputeSerializer, responses={201: DisputeSerializer})
    @action(detail=False, methods=["post"])
    def dispute(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = self._game()
        body = HandoverDisputeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        dispute = services.dispute_raise(
            game=game,
            reason=body.validated_data["reason"],
            player_id=body.validated_data.get("player"),
            device_user=request.user,
            request=request,
        )
        return Response(DisputeSerializer(dispute).data, status=status.HTTP_201_CREATED)


class MySettingsSerializer(serializers.Serializer):
    has_pin = serializers.BooleanField(read_only=True, help_text="A confirmation PIN is set.")
    pin_locked = serializers.BooleanField(
        read_only=True, help_text="Locked after too many wrong tries: set a new PIN."
    )
    pin = serializers.CharField(
        write_only=True,
        required=False,
        allow_null=True,
        max_length=6,
        help_text="A new confirmation PIN (4 to 6 digits; it also unlocks a locked one), "
        "or null to remove it and confirm from your own phone.",
    )
    name_public = serializers.BooleanField(
        required=False,
        help_text="Your name on the public pages and API of public clubs (else initials), "
        "for every club you play in.",
    )


class MySettingsView(APIView):
    """The logged-in member's own settings, as on ``/me/settings/``."""

    permission_classes = [IsAuthenticated]

    def _settings(self, user: Any) -> dict[str, Any]:
        profile = services.profile_for(user)
        return {
            "has_pin": profile.has_pin,
            "pin_locked": profile.pin_locked_at is not None,
            "name_public": services.profile_name_public(user=user),
        }

    @extend_schema(operation_id="me_settings_retrieve", responses={200: MySettingsSerializer})
    def get(self, request: Request) -> Response:
        return Response(self._settings(request.user))

    @extend_schema(
        operation_id="me_settings_partial_update",
        request=MySettingsSerializer,
        responses={200: MySettingsSerializer},
    )
    def patch(self, request: Request) -> Response:
        """Change what is sent; what is left out stays. All of it or nothing."""
        body = MySettingsSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        with transaction.atomic():
            if "name_public" in data:
                services.profile_set_privacy(user=request.user, name_public=data["name_public"])
            if "pin" in data:
                if data["pin"] is None:
                    services.profile_clear_pin(user=request.user)
                else:
                    services.profile_set_pin(user=request.user, pin=data["pin"])
        return Response(self._settings(request.user))


#: Examples for the schema's write operations (core.schema applies them by component).
REQUEST_EXAMPLES = {
    "InvitationRequest": {
        "email": "irma@example.org",
        "role": "player",
        "player": None,
        "note": "Irma, Tuesday's new player",
        "days": 14,
    },
    "ResolveRequest": {"resolution": "Deal 3 corrected: the bell was side A's."},
    "HandoverConfirmRequest": {"player": 7, "pin": "4821"},
    "HandoverDisputeRequest": {"player": 7, "reason": "Deal 3: our four jacks are missing."},
    "MySettingsRequest": {"pin": "4821", "name_public": False},
}
