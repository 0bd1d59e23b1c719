"""API of federations: ``/api/federations/`` (the public ones, and those you are an officer
of), and under ``/api/federations/<federation_slug>/``: member clubs, players (officers see
all; others the public profiles), links (a club admin proposes; the player or an officer
approves or refuses), merges (officers; undo with ``unmerge``).

The federation comes from the URL and is checked once (``federation.access``): one you
may not read answers 404. The same services as the pages; a refusal answers
``{"errors": [{"field", "message"}]}`` with its kind's status. Writes with an API token
need its admin scope (or the site's session).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from clabber_league.clubs import tokens
from clabber_league.clubs.models import Membership, Player, Role

from . import selectors, services
from .access import NOT_FOUND, FederationAccess, federation_access
from .models import Federation, FederationClub, FederationPlayer, PlayerLink, PlayerMerge

WRITES_NEED_ADMIN_SCOPE = (
    "This token's scope is {scope}: a federation's writes need a token with the admin scope "
    "(or the site, logged in)."
)


class FederationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Federation
        fields = ["slug", "name", "country", "is_public", "number_prefix"]


class FederationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The public federations, and those you are an officer of."""

    serializer_class = FederationSerializer
    permission_classes = [AllowAny]
    lookup_field = "slug"
    lookup_url_kwarg = "federation_slug"
    queryset = Federation.objects.none()

    def get_queryset(self) -> QuerySet[Federation]:
        return selectors.federations_for(user=self.request.user).order_by("name")


class FederationPermission(permissions.BasePermission):
    """Reads: anyone who may read the federation (checked in ``initial``). Writes: logged
    in, with a token's admin scope when a token is sent; the service checks the role."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        if not request.user.is_authenticated:
            return False
        scope = tokens.scope_of(request)
        if scope not in (None, "admin"):
            raise tokens.InsufficientScope(WRITES_NEED_ADMIN_SCOPE.format(scope=scope))
        return True


class FederationScopedMixin:
    """Resolves ``self.federation_access`` from the URL once per request."""

    permission_classes = [FederationPermission]
    federation_access: FederationAccess

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        try:
            self.federation_access = federation_access(
                slug=kwargs.get("federation_slug", ""), user=request.user
            )
        except Http404 as exc:
            raise NotFound(NOT_FOUND) from exc
        super().initial(request, *args, **kwargs)  # type: ignore[misc]

    @property
    def federation(self) -> Federation:
        return self.federation_access.federation

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no federation
            return self.queryset  # type: ignore[attr-defined]
        return self.queryset_for(self.federation_access)

    def queryset_for(self, access: FederationAccess) -> QuerySet:
        raise NotImplementedError


# --- clubs --------------------------------------------------------------------------------------


class FederationClubSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    club_name = serializers.CharField(source="club.name", read_only=True)

    class Meta:
        model = FederationClub
        fields = ["id", "club", "club_name", "status", "joined_on"]
        read_only_fields = fields


class FederationClubViewSet(
    FederationScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """The federation's member clubs; officers also see requests, invitations and clubs
    that left."""

    serializer_class = FederationClubSerializer
    queryset = FederationClub.objects.none()

    def queryset_for(self, access: FederationAccess) -> QuerySet[FederationClub]:
        if access.can("officer"):
            return selectors.club_rows(access=access)
        return selectors.member_clubs(federation=access.federation)


# --- players ------------------------------------------------------------------------------------


class FederationPlayerSerializer(serializers.ModelSerializer):
    name = serializers.SerializerMethodField()
    home_club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    merged_into = serializers.SlugRelatedField(slug_field="number", read_only=True)

    class Meta:
        model = FederationPlayer
        fields = ["id", "number", "name", "home_club", "is_public", "active", "merged_into"]
        read_only_fields = fields

    def get_name(self, player: FederationPlayer) -> str:
        return "" if player.erased_at is not None else player.name

    def to_representation(self, instance: FederationPlayer) -> dict:
        data = super().to_representation(instance)
        view = self.context.get("view")
        access = getattr(view, "federation_access", None)
        if access is not None and access.can("officer"):
            data["birth_year"] = instance.birth_year
            data["email"] = instance.email
            data["erased"] = instance.erased_at is not None
        return data


class FederationPlayerCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, allow_blank=True)
    birth_year = serializers.IntegerField(required=False, allow_null=True)
    email = serializers.CharField(required=False, allow_blank=True, default="")
    home_club = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="A member club's slug."
    )


class FederationPlayerViewSet(
    FederationScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Players (``?number=NKU-000123`` finds one by number). Officers see every record of
    their federation; others see the players who chose a public profile. Officers give a
    person a number (POST)."""

    serializer_class = FederationPlayerSerializer
    queryset = FederationPlayer.objects.none()
    filterset_fields = ["number", "active"]
    search_fields = ["name", "number"]

    def queryset_for(self, access: FederationAccess) -> QuerySet[FederationPlayer]:
        return selectors.players_visible(access=access)

    @extend_schema(
        request=FederationPlayerCreateSerializer,
        responses={201: FederationPlayerSerializer},
        examples=[
            OpenApiExample(
                "A new number",
                value={"name": "Maria Lutz", "birth_year": 1971, "home_club": "de-troef"},
                request_only=True,
            )
        ],
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = FederationPlayerCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        home = None
        if data.get("home_club"):
            row = selectors.member_clubs(federation=self.federation).filter(
                club__slug=data["home_club"]
            )
            if not row.exists():
                raise services.FederationError.one("home_club", services.errors.CLUB_NOT_MEMBER)
            home = row.first().club
        player = services.player_create(
            access=self.federation_access,
            name=data["name"],
            birth_year=data.get("birth_year"),
            email=data.get("email", ""),
            home_club=home,
        )
        out = FederationPlayerSerializer(player, context=self.get_serializer_context())
        return Response(out.data, status=status.HTTP_201_CREATED)


# --- links --------------------------------------------------------------------------------------


class PlayerLinkSerializer(serializers.ModelSerializer):
    number = serializers.SlugRelatedField(
        source="federation_player", slug_field="number", read_only=True
    )
    club = serializers.SlugRelatedField(source="player.club", slug_field="slug", read_only=True)
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = PlayerLink
        fields = ["id", "player", "player_name", "club", "number", "status", "decided_at"]
        read_only_fields = fields


class LinkProposeSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="The club player's id (in a member club).")
    number = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="Empty: a new number."
    )
    birth_year = serializers.IntegerField(required=False, allow_null=True)
    email = serializers.CharField(required=False, allow_blank=True, default="")


class PlayerLinkViewSet(
    FederationScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Links of club players to numbers. Officers see every link; a person sees the links
    of their own club players and of the clubs they are an admin of. A club admin
    proposes (POST); the player or an officer approves or refuses."""

    serializer_class = PlayerLinkSerializer
    queryset = PlayerLink.objects.none()
    filterset_fields = ["status"]

    def queryset_for(self, access: FederationAccess) -> QuerySet[PlayerLink]:
        links = access.federation.links.select_related("federation_player", "player__club")
        if access.can("officer"):
            return links.order_by("pk")
        if access.user is None:
            return PlayerLink.objects.none()
        admin_of = Membership.objects.filter(user=access.user, role=Role.ADMIN).values("club")
        mine = Q(player__user=access.user) | Q(player__club__in=admin_of)
        return links.filter(mine).order_by("pk")

    @extend_schema(
        request=LinkProposeSerializer,
        responses={201: PlayerLinkSerializer},
        examples=[
            OpenApiExample(
                "Link to a number", value={"player": 12, "number": "NKU-000123"}, request_only=True
            )
        ],
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = LinkProposeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        player = Player.objects.select_related("club").filter(pk=data["player"]).first()
        if player is None:
            raise services.FederationError.one(
                "player", services.errors.PLAYER_OTHER_CLUB, kind="not_found"
            )
        link = services.link_propose(
            access=self.federation_access,
            player=player,
            number=data.get("number", ""),
            birth_year=data.get("birth_year"),
            email=data.get("email", ""),
        )
        return Response(PlayerLinkSerializer(link).data, status=status.HTTP_201_CREATED)

    def _decide(self, approve: bool) -> Response:
        link = self.get_object()
        link = services.link_decide(access=self.federation_access, link=link, approve=approve)
        return Response(PlayerLinkSerializer(link).data)

    @extend_schema(request=None, responses={200: PlayerLinkSerializer})
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def approve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The player or an officer approves a proposed link."""
        return self._decide(True)

    @extend_schema(request=None, responses={200: PlayerLinkSerializer})
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def refuse(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The player or an officer refuses a proposed link."""
        return self._decide(False)


# --- merges -------------------------------------------------------------------------------------


class FederationMergeSerializer(serializers.ModelSerializer):
    kept = serializers.SlugRelatedField(slug_field="number", read_only=True)
    merged = serializers.SlugRelatedField(slug_field="number", read_only=True)
    approved_by = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = PlayerMerge
        fields = ["id", "kept", "merged", "reason", "moved_links", "approved_by", "at", "undone_at"]
        read_only_fields = fields


class MergeRequestSerializer(serializers.Serializer):
    kept = serializers.CharField(help_text="The number that stays.")
    merged = serializers.CharField(help_text="The number merged into it (retired).")
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)


class PlayerMergeViewSet(
    FederationScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Merges of two records of one person (officers only), and their undo."""

    serializer_class = FederationMergeSerializer
    queryset = PlayerMerge.objects.none()

    def queryset_for(self, access: FederationAccess) -> QuerySet[PlayerMerge]:
        return selectors.merges(access=access)

    def _record(self, field: str, number: str) -> FederationPlayer:
        player = self.federation.players.filter(number=number.strip()).first()
        if player is None:
            raise services.FederationError.one(
                field,
                services.errors.NO_SUCH_NUMBER.format(number=number.strip()),
                kind="not_found",
            )
        return player

    @extend_schema(
        request=MergeRequestSerializer,
        responses={201: FederationMergeSerializer},
        examples=[
            OpenApiExample(
                "Merge",
                value={"kept": "NKU-000012", "merged": "NKU-000345", "reason": "one person"},
                request_only=True,
            )
        ],
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not self.federation_access.can("officer"):
            raise services.FederationError.one("", services.errors.NEEDS_OFFICER, kind="forbidden")
        body = MergeRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        merge = services.player_merge(
            access=self.federation_access,
            kept=self._record("kept", data["kept"]),
            merged=self._record("merged", data["merged"]),
            reason=data.get("reason", ""),
        )
        return Response(FederationMergeSerializer(merge).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: FederationMergeSerializer})
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def unmerge(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Undo the merge: the merged number's record and links come back as they were."""
        merge = services.player_unmerge(access=self.federation_access, merge=self.get_object())
        return Response(FederationMergeSerializer(merge).data)


# Request bodies' examples in the schema, by component.
REQUEST_EXAMPLES = {
    "FederationPlayerCreateRequest": {"name": "Maria Lutz", "birth_year": 1971},
    "LinkProposeRequest": {"player": 12, "number": "NKU-000123"},
    "MergeRequestRequest": {"kept": "NKU-000012", "merged": "NKU-000345"},
}
