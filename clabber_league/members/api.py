"""API of members: invitations and disputes (club admins), the scorer's phone handed to
the other side (confirm by PIN, or dispute), players' PINs on the secretary's phone,
a member's own settings (``/api/me/
settings/``: the confirmation PIN, the name on public pages) and API tokens
(``/api/me/tokens/``, ``clubs.tokens``). The same services as the
pages; a refusal answers ``{"errors": [{"field", "message"}]}`` with its kind's status
(400 invalid, 409 a conflict with what is stored; 429 when PIN tries are throttled).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clabber_league.clubs import tokens
from clabber_league.clubs.api_base import ClubPermission, ClubScopedMixin
from clabber_league.clubs.mfa import MFA_REQUIRED, admin_needs_mfa_setup
from clabber_league.clubs.models import ApiToken, Player, Role
from clabber_league.clubs.privacy import sees_names
from clabber_league.games.api import TABLE_AUTHENTICATION, GameSerializer
from clabber_league.games.models import Game
from clabber_league.games.table_links import api_grant, at_table

from . import selectors, services
from .models import Dispute, Invitation


class ManageReadsToo(ClubPermission):
    """Invitations and disputes are the club admins' business, to read as well."""

    def has_permission(self, request: Request, view: Any) -> bool:
        tokens.check_scope(view.club_access, "manage")
        if not view.club_access.can("manage"):
            from rest_framework.exceptions import PermissionDenied

            from clabber_league.clubs.api_base import NEEDS_ROLE

            if not request.user.is_authenticated:
                return False
            raise PermissionDenied(NEEDS_ROLE)
        if admin_needs_mfa_setup(view.club_access, request.user):
            from rest_framework.exceptions import PermissionDenied

            raise PermissionDenied(MFA_REQUIRED)
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
    claim_pending = serializers.BooleanField(
        read_only=True,
        help_text="The person who joined chose an existing player (claimed_player) and waits "
        "for a club admin's approval (POST claim/).",
    )

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
            "claimed_player",
            "claim_pending",
            "claim_approved",
        ]
        read_only_fields = [
            "created_at",
            "expires_at",
            "accepted_at",
            "revoked_at",
            "claimed_player",
            "claim_approved",
        ]

    def get_fields(self) -> dict:
        fields = super().get_fields()
        club = self.context.get("club")
        fields["player"].queryset = club.players.all() if club else Player.objects.none()
        return fields

    def get_url(self, invitation: Invitation) -> str | None:
        if invitation.state() != Invitation.State.OPEN:
            return None
        return services.invitation_url(invitation=invitation, request=self.context.get("request"))


class ClaimDecisionSerializer(serializers.Serializer):
    approve = serializers.BooleanField(
        help_text="true: link the login to the claimed player; false: refuse."
    )


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

    @extend_schema(
        request=ClaimDecisionSerializer,
        responses={200: InvitationSerializer},
        examples=[OpenApiExample("Approve", value={"approve": True}, request_only=True)],
    )
    @action(detail=True, methods=["post"])
    def claim(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Approve or refuse that the person who joined is the existing player they chose
        (a player the invitation did not name, or one with games awaiting acceptance)."""
        body = ClaimDecisionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        invitation = services.invitation_claim_decide(
            invitation=self.get_object(),
            user=request.user,
            access=self.club_access,
            approve=body.validated_data["approve"],
        )
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
    player = serializers.IntegerField(help_text="The seated player who accepts for their side.")
    pin = serializers.CharField(
        max_length=6, help_text="Their confirmation PIN (4 to 6 ASCII digits)."
    )


class HandoverDisputeSerializer(serializers.Serializer):
    player = serializers.IntegerField(
        required=False, allow_null=True, help_text="Who disputes (required on a table link)."
    )
    pin = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=6,
        help_text="Their PIN: required on a table link (no account), where it proves who it is.",
    )
    reason = serializers.CharField(max_length=1000)


class TablePinSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="The seated player with no PIN yet.")
    pin = serializers.CharField(max_length=6, help_text="Their new PIN (4 to 6 ASCII digits).")
    admin = serializers.IntegerField(help_text="The id of the club admin present who approves.")
    admin_secret = serializers.CharField(
        max_length=128, help_text="That admin's own PIN or password."
    )


class PlayerPinStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="As the caller may see it (initials if private).")
    has_pin = serializers.BooleanField()


class SideStateSerializer(serializers.Serializer):
    side = serializers.CharField(help_text="The side's letter, for clients; never shown.")
    name = serializers.CharField(help_text="The team's name, else its players'.")
    score = serializers.IntegerField()
    state = serializers.ChoiceField(
        choices=["entered", "accepted", "waiting"],
        help_text="entered: its account entered the deals, it does not accept; accepted; "
        "waiting: still to accept.",
    )
    players = PlayerPinStateSerializer(many=True)


class AcceptanceSerializer(serializers.Serializer):
    side = serializers.CharField(help_text="Blank: the whole game (a club admin).")
    how = serializers.CharField(help_text="own_phone, pin, admin or club.")
    player = serializers.IntegerField(allow_null=True, source="player_id")
    at = serializers.DateTimeField()
    at_table = serializers.CharField()
    counts = serializers.BooleanField(help_text="False once a deal changed after it.")


class ConfirmationSerializer(serializers.Serializer):
    status = serializers.CharField(help_text="The game's status.")
    sides = SideStateSerializer(many=True)
    waiting = serializers.ListField(
        child=serializers.CharField(), help_text="The names of the sides still to accept."
    )
    acceptances = AcceptanceSerializer(many=True)


class HandoverViewSet(ClubScopedMixin, viewsets.GenericViewSet):
    """Accepting a finished game's result at the table: on the table link's phone
    (``Authorization: Table <token>``, no account) or a scorer's, each side with the PIN
    of one of its players; the same services and the same rule as the pages."""

    write_need = "score"
    serializer_class = HandoverConfirmSerializer
    queryset = Game.objects.none()
    authentication_classes = TABLE_AUTHENTICATION
    table_grant = api_grant

    def _game(self) -> Game:
        return get_object_or_404(Game.objects.filter(club=self.club), pk=self.kwargs["game_id"])

    def _device(self, request: Request) -> Any:
        return request.user if request.user.is_authenticated else None

    @extend_schema(responses={200: ConfirmationSerializer})
    @action(detail=False, methods=["get"])
    def state(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Who entered the result, who has accepted, who is still to accept, and every
        acceptance given (who, how, when)."""
        game = self._game()
        sheet = selectors.acceptance_sheet(game=game, to_member=sees_names(self.club_access))
        body = {
            "status": game.status,
            "sides": [
                {
                    "side": s.side,
                    "name": s.name,
                    "score": s.score,
                    "state": s.state,
                    "players": [{"id": p.pk, "name": n, "has_pin": has} for p, n, has in s.players],
                }
                for s in sheet["sides"]
            ],
            "waiting": [s.name for s in sheet["waiting"]]
            if game.status == Game.Status.FINISHED
            else [],
            "acceptances": sheet["history"],
        }
        return Response(ConfirmationSerializer(body).data)

    @extend_schema(request=HandoverConfirmSerializer, responses={200: GameSerializer})
    @action(detail=False, methods=["post"])
    def confirm(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """One side accepts with a player's PIN; the game is confirmed once every side that
        did not enter it has accepted (its ``status`` says which: see ``state``)."""
        game = self._game()
        body = HandoverConfirmSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        game = services.handover_confirm(
            game=game,
            player_id=body.validated_data["player"],
            pin=body.validated_data["pin"],
            device_user=self._device(request),
            at_table=at_table(self.club_access, request.user),
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
            pin=body.validated_data.get("pin") or None,
            device_user=self._device(request),
            request=request,
        )
        return Response(DisputeSerializer(dispute).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TablePinSerializer, responses={204: None})
    @action(detail=False, methods=["post"])
    def pin(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """A seated player with no PIN yet sets one at the table, approved by a club admin
        present with the admin's own PIN or password."""
        game = self._game()
        body = TablePinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.table_pin_set(
            game=game,
            player_id=body.validated_data["player"],
            pin=body.validated_data["pin"],
            admin_id=body.validated_data["admin"],
            admin_secret=body.validated_data["admin_secret"],
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerPinSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="The club's player.")
    pin = serializers.CharField(
        max_length=6, help_text="Their new PIN (4 to 6 ASCII digits), typed by the player."
    )


class PlayerPinResetSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="The club's player whose PIN is forgotten.")


class PlayerPinViewSet(ClubScopedMixin, viewsets.GenericViewSet):
    """Players' PINs on a club admin's phone (the secretary's, at check-in): a player with
    no PIN yet types one; a club admin resets a forgotten one. The PIN is never returned."""

    write_need = "manage"
    permission_classes = [ManageReadsToo]
    serializer_class = PlayerPinSerializer
    queryset = Player.objects.none()

    @extend_schema(request=PlayerPinSerializer, responses={204: None})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = PlayerPinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.player_pin_set(
            access=self.club_access,
            player_id=body.validated_data["player"],
            pin=body.validated_data["pin"],
        )
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=PlayerPinResetSerializer, responses={204: None})
    @action(detail=False, methods=["post"])
    def reset(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = PlayerPinResetSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.player_pin_reset(access=self.club_access, player_id=body.validated_data["player"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class MySettingsSerializer(serializers.Serializer):
    has_pin = serializers.BooleanField(read_only=True, help_text="A confirmation PIN is set.")
    pin = serializers.CharField(
        write_only=True,
        required=False,
        allow_null=True,
        max_length=6,
        help_text="A new confirmation PIN (4 to 6 ASCII digits), or null to remove it and "
        "accept results on your own phone.",
    )
    name_public = serializers.BooleanField(
        required=False,
        help_text="Your name on the public pages and API of public clubs (else initials), "
        "for every club you play in.",
    )
    language = serializers.ChoiceField(
        required=False,
        allow_blank=True,
        choices=[("", "Follow the club")] + [(code, code) for code, _name in settings.LANGUAGES],
        error_messages={
            "invalid_choice": "Choose one of the site's languages ("
            + ", ".join(code for code, _name in settings.LANGUAGES)
            + '), or "" to follow the club.'
        },
        help_text="The language of your pages and emails in every club (a code of the "
        "site's languages), or \"\" to follow each club's. The API answers in English.",
    )


class MySettingsView(APIView):
    """The logged-in member's own settings, as on ``/me/settings/``."""

    permission_classes = [IsAuthenticated, tokens.OwnAccountScope]

    def _settings(self, user: Any) -> dict[str, Any]:
        profile = services.profile_for(user)
        return {
            "has_pin": profile.has_pin,
            "name_public": services.profile_name_public(user=user),
            "language": profile.language,
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
            if "language" in data:
                services.profile_set_language(user=request.user, language=data["language"])
            if "name_public" in data:
                services.profile_set_privacy(user=request.user, name_public=data["name_public"])
            if "pin" in data:
                if data["pin"] is None:
                    services.profile_clear_pin(user=request.user)
                else:
                    services.profile_set_pin(user=request.user, pin=data["pin"])
        return Response(self._settings(request.user))


class ApiTokenSerializer(serializers.ModelSerializer):
    prefix = serializers.CharField(
        read_only=True, help_text="The key's first 12 characters, to tell your tokens apart."
    )
    last_used_at = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="Its last request (to the minute); null: never."
    )

    class Meta:
        model = ApiToken
        fields = ["id", "name", "scope", "prefix", "created_at", "last_used_at"]
        read_only_fields = ["id", "created_at"]
        extra_kwargs = {
            "name": {"help_text": "What the token is for, to know it by (at most 60 characters)."},
            "scope": {
                "help_text": "What it may do, capping your role in every club: read (read "
                "only), score (read, score and confirm games; manage nothing) or admin "
                "(whatever your role allows)."
            },
        }


class ApiTokenCreatedSerializer(ApiTokenSerializer):
    key = serializers.CharField(
        read_only=True,
        help_text="The token: send it as Authorization: Bearer <key>. Shown this once only; "
        "only its SHA-256 is kept.",
    )

    class Meta(ApiTokenSerializer.Meta):
        fields = [*ApiTokenSerializer.Meta.fields, "key"]


class MyTokenViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Your own API tokens: list them, create one (its key is answered once) and revoke
    one (it stops working at once). A read or score token lists them; creating or revoking
    takes an admin token or the site's session."""

    permission_classes = [IsAuthenticated, tokens.OwnAccountScope]
    serializer_class = ApiTokenSerializer
    queryset = ApiToken.objects.none()

    def get_queryset(self) -> QuerySet[ApiToken]:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return tokens.tokens_of(user=self.request.user)

    @extend_schema(
        operation_id="me_tokens_create",
        request=ApiTokenSerializer,
        responses={201: ApiTokenCreatedSerializer},
    )
    def create(self, request: Request) -> Response:
        """A new token; the answer carries its ``key``, which is never shown again. Not
        idempotent on purpose: a replay would have to keep the key."""
        body = ApiTokenSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        token, key = tokens.token_create(user=request.user, **body.validated_data)
        return Response(
            ApiTokenCreatedSerializer({**ApiTokenSerializer(token).data, "key": key}).data,
            status=status.HTTP_201_CREATED,
        )

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Revoke the token: it answers 401 from the next request on."""
        tokens.token_revoke(user=request.user, token_id=kwargs["pk"])
        return Response(status=status.HTTP_204_NO_CONTENT)


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
    "HandoverDisputeRequest": {
        "player": 7,
        "pin": "4821",
        "reason": "Deal 3: our four jacks are missing.",
    },
    "TablePinRequest": {"player": 9, "pin": "2580", "admin": 3, "admin_secret": "7314"},
    "PlayerPinRequest": {"player": 9, "pin": "2580"},
    "PlayerPinResetRequest": {"player": 9},
    "MySettingsRequest": {"pin": "4821", "name_public": False, "language": "nl"},
    "ApiTokenRequest": {"name": "Results board in the hall", "scope": "read"},
}
