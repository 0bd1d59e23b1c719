"""API of clubs: the clubs a person can see, their members and players."""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from rest_framework import mixins, serializers, viewsets
from rest_framework.permissions import AllowAny

from clabber_league.core.api import Conflict

from . import services
from .api_base import ClubScopedModelViewSet
from .models import Club, Membership, Player
from .privacy import sees_names
from .selectors import clubs_for_user
from .serializers_base import ClubScopedSerializer

ALREADY_MEMBER = "This person is already a member of the club."
PLAYER_NAME_TAKEN = "The club already has a player of this name."


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

    def validate_username(self, user):
        club = self.context["club"]
        existing = Membership.objects.filter(club=club, user=user)
        if self.instance is not None:
            existing = existing.exclude(pk=self.instance.pk)
        if existing.exists():
            raise Conflict(ALREADY_MEMBER, field="username")
        return user

    def create(self, validated_data):
        validated_data["club"] = self.context["club"]
        return super().create(validated_data)


class MembershipViewSet(ClubScopedModelViewSet):
    """Members and their roles (viewer, player, scorer, club admin). Club admins manage them;
    only members can list them, even in a public club."""

    serializer_class = MembershipSerializer
    queryset = Membership.objects.none()
    filterset_fields = ["role"]

    def queryset_for_club(self, club) -> QuerySet[Membership]:
        if self.club_access.membership is None:
            return Membership.objects.none()
        return club.memberships.select_related("user").order_by("user__username")

    def perform_update(self, serializer) -> None:
        # A refusal (the club's last admin) is a ClubError: 409 by the exception handler.
        data = dict(serializer.validated_data)
        serializer.instance = services.membership_update(
            membership=serializer.instance, role=data.pop("role", None), **data
        )

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

    # One transaction each: a refused login link leaves no new or half-changed player.
    @transaction.atomic
    def create(self, validated_data: dict) -> Player:
        user = validated_data.pop("user", None)
        player = super().create(validated_data)
        return self._link(player, user) if user is not None else player

    @transaction.atomic
    def update(self, instance: Player, validated_data: dict) -> Player:
        linking = "user" in validated_data
        user = validated_data.pop("user", None)
        player = super().update(instance, validated_data)
        return self._link(player, user) if linking else player

    def _link(self, player: Player, user) -> Player:
        # A login linked to another player is a ClubError (409), raised as is.
        return services.player_link_user(player=player, user=user)

    def validate_name(self, name: str) -> str:
        club = self.context["club"]
        clash = Player.objects.filter(club=club, name=name)
        if self.instance is not None:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise Conflict(PLAYER_NAME_TAKEN, field="name")
        return name


class PlayerViewSet(ClubScopedModelViewSet):
    serializer_class = PlayerSerializer
    queryset = Player.objects.none()
    filterset_fields = ["active"]
    search_fields = ["name"]

    def queryset_for_club(self, club) -> QuerySet[Player]:
        return club.players.order_by("name")


# Request bodies' examples in the schema, by component (``<Serializer name>Request``; the
# PATCH variant uses the same). ``core.schema.postprocess_request_examples`` applies them.
REQUEST_EXAMPLES = {
    "MembershipRequest": {"username": "maria", "role": "scorer"},
    "PlayerRequest": {"name": "Maria Lutz", "active": True},
}
