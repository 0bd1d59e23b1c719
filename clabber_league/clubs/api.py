"""API of clubs: the clubs a person can see, their members and players."""

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from . import services
from .api_base import ClubScopedModelViewSet
from .models import Club, Membership, Player, PlayerMerge
from .privacy import sees_names
from .selectors import clubs_for_user
from .serializers_base import ClubScopedSerializer


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["slug", "name", "city", "is_public"]


class ClubViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The clubs you belong to, and every public club."""

    serializer_class = ClubSerializer
    permission_classes = [AllowAny]
    lookup_field = "slug"
    lookup_url_kwarg = "club_slug"  # one name for the club's slug in every path
    queryset = Club.objects.none()
    filterset_fields = ["is_public", "city"]

    def get_queryset(self) -> QuerySet[Club]:
        return clubs_for_user(user=self.request.user).order_by("name")


class MembershipSerializer(serializers.ModelSerializer):
    username = serializers.SlugRelatedField(
        source="user", slug_field="username", queryset=get_user_model().objects.all()
    )

    class Meta:
        model = Membership
        fields = ["id", "username", "role", "created_at"]
        read_only_fields = ["created_at"]
        validators: list = []

    def create(self, validated_data) -> Membership:
        return services.membership_add(club=self.context["club"], **validated_data)

    def update(self, instance: Membership, validated_data) -> Membership:
        data = dict(validated_data)
        return services.membership_update(membership=instance, role=data.pop("role", None), **data)


class MembershipViewSet(ClubScopedModelViewSet):
    """Members and their roles (viewer, player, scorer, club admin). Club admins manage them;
    only members can list them, even in a public club."""

    serializer_class = MembershipSerializer
    queryset = Membership.objects.none()
    filterset_fields = ["role"]
    #: ``?ordering=`` (``core.filtering``): by username (the default), role or joining.
    ordering_fields = {"username": "user__username", "role": "role", "created_at": "created_at"}

    def queryset_for_club(self, club) -> QuerySet[Membership]:
        if self.club_access.membership is None:
            return Membership.objects.none()
        return club.memberships.select_related("user").order_by("user__username")

    def perform_destroy(self, instance: Membership) -> None:
        services.membership_remove(membership=instance)


class PlayerSerializer(ClubScopedSerializer):
    user = serializers.SlugRelatedField(
        slug_field="username",
        queryset=get_user_model().objects.all(),
        allow_null=True,
        required=False,
        help_text="The member's login (username) linked to this player; null for none. "
        "Set by club admins; shown to the club's members only, never publicly.",
    )

    class Meta:
        model = Player
        fields = ["id", "name", "active", "user"]

    def to_representation(self, instance: Player) -> dict:
        data = super().to_representation(instance)
        access = getattr(self.context.get("view"), "club_access", None)
        if not sees_names(access):
            data.pop("user", None)  # usernames are never shown publicly
            data["name"] = instance.shown_name(to_member=False)
        return data

    def get_fields(self) -> dict:
        fields = super().get_fields()
        club = self.context.get("club")
        members = get_user_model().objects.filter(memberships__club=club) if club else None
        fields["user"].queryset = (
            members if members is not None else get_user_model().objects.none()
        )
        fields["user"].error_messages["does_not_exist"] = services.PLAYER_LOGIN_NOT_MEMBER
        return fields

    @transaction.atomic
    def create(self, validated_data: dict) -> Player:
        user = validated_data.pop("user", None)
        player = services.player_create(club=self.context["club"], **validated_data)
        return services.player_link_user(player=player, user=user) if user is not None else player

    @transaction.atomic
    def update(self, instance: Player, validated_data: dict) -> Player:
        linking = "user" in validated_data
        user = validated_data.pop("user", None)
        player = services.player_update(player=instance, **validated_data)
        return services.player_link_user(player=player, user=user) if linking else player


class PlayerMergeIntoSerializer(serializers.Serializer):
    into = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.none(),
        help_text="The player who stays: the one in the URL is merged into them and removed.",
    )

    def get_fields(self) -> dict:
        fields = super().get_fields()
        club = self.context.get("club")
        fields["into"].queryset = club.players.all() if club else Player.objects.none()
        return fields


class PlayerMergeSerializer(serializers.ModelSerializer):
    """The record of a merge: who was merged into whom, by whom, and what moved."""

    merged_by = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = PlayerMerge
        fields = ["id", "target", "source_id", "source_name", "moved", "merged_by", "merged_at"]
        read_only_fields = fields


class PlayerViewSet(ClubScopedModelViewSet):
    """The club's players. A name the club has already, in any case, is a 409; two
    players who are one person are merged (``POST .../players/{id}/merge/``)."""

    serializer_class = PlayerSerializer
    queryset = Player.objects.none()
    filterset_fields = ["active"]
    search_fields = ["name"]
    #: ``?ordering=`` (``core.filtering``): by name (the default) or id (entered first).
    ordering_fields = ["name", "id"]

    def queryset_for_club(self, club) -> QuerySet[Player]:
        return club.players.order_by("name")

    @extend_schema(
        request=PlayerMergeIntoSerializer,
        responses={200: PlayerMergeSerializer},
        summary="Merge this player into another (the same person entered twice)",
    )
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def merge(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Their games, seats, team places, statistics and ratings become the other
        player's; this player is removed and the merge recorded."""
        source = self.get_object()
        body = PlayerMergeIntoSerializer(data=request.data, context={"club": self.club})
        body.is_valid(raise_exception=True)
        merge = services.player_merge(
            source=source, target=body.validated_data["into"], user=request.user
        )
        return Response(PlayerMergeSerializer(merge).data)


# Request bodies' examples in the schema, by component (``<Serializer name>Request``; the
# PATCH variant uses the same). ``core.schema.postprocess_request_examples`` applies them.
REQUEST_EXAMPLES = {
    "MembershipRequest": {"username": "maria", "role": "scorer"},
    "PlayerRequest": {"name": "Maria Lutz", "active": True},
    "PlayerMergeIntoRequest": {"into": 12},
}
