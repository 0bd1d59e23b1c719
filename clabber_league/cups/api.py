"""API of cups: cups and play-offs (create, seed, draw, build a play-off's knockout, place a
round on league nights, the bracket) and their ties (start the next game, a walkover, a
night and table). The same services as the pages; club admins write, reading follows the
club's visibility. A refusal answers ``{"errors": [{"field", "message"}]}`` with its
kind's status (400 invalid, 409 a conflict with what is stored: re-drawing a bracket with
results, seeding from an unfinished stage, a tie already decided).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from clabber_league.calculator.api import ERROR_BODY
from clabber_league.clubs.api_base import ClubScopedMixin
from clabber_league.clubs.models import Player
from clabber_league.clubs.serializers_base import ClubScopedSerializer
from clabber_league.core.commitments import seed_hash
from clabber_league.games.api import GameSerializer
from clabber_league.leagues.models import Division, Team, Venue

from . import selectors
from .models import Cup, Entrant, Stage, Tie
from .services import build, placing, progress, setup

RULES_SHAPE = "Give a rule set's slug or house rules (an object with base and options)."
MAX_SEATS = 6
NO_SUCH = "No such {thing} in this club."


class EntrantSerializer(serializers.ModelSerializer):
    class Meta:
        model = Entrant
        fields = ["id", "seed", "team", "player", "name", "note"]
        read_only_fields = fields


class StageSerializer(serializers.ModelSerializer):
    notes = serializers.ListField(child=serializers.CharField(), read_only=True)

    class Meta:
        model = Stage
        fields = [
            "number",
            "kind",
            "divisions",
            "top",
            "per",
            "tie_rule",
            "build",
            "message",
            "notes",
            "finished_at",
        ]
        read_only_fields = fields


class CupSerializer(serializers.ModelSerializer):
    """A cup with its entrants (seed order, each with the reason for its seed) and stages
    (a play-off's league stage, then the knockout with the seeding's notes)."""

    entrants = EntrantSerializer(many=True, read_only=True)
    stages = StageSerializer(many=True, read_only=True)
    rules = serializers.JSONField(read_only=True)
    seed_text = serializers.SerializerMethodField(
        help_text="The random draw's seed, chosen by the server: null while a play-off "
        "waits for its league stage (only seed_hash is shown), blank if it has none."
    )
    seed_hash = serializers.SerializerMethodField(
        help_text="SHA-256 (hex) of the random draw's seed, committed when the cup was created."
    )

    def get_seed_text(self, cup: Cup) -> str | None:
        return None if cup.status == Cup.Status.WAITING else cup.seed_text

    def get_seed_hash(self, cup: Cup) -> str | None:
        seed = setup.cup_seed_of(cup)
        return seed_hash(seed) if seed else None

    class Meta:
        model = Cup
        fields = [
            "id",
            "name",
            "entrant_kind",
            "format",
            "best_of",
            "third_place",
            "plate",
            "final_reset",
            "seeding",
            "seed_text",
            "seed_hash",
            "draw_algorithm",
            "rules",
            "status",
            "champion",
            "created_at",
            "entrants",
            "stages",
        ]
        read_only_fields = fields


class IdsField(serializers.ListField):
    """A list of ids, read in one query (``validate``), of the club only."""

    child = serializers.IntegerField(min_value=1, max_value=2**63 - 1)


class RulesField(serializers.JSONField):
    """A rule set's slug, or house-rules data (base and options)."""

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        if not isinstance(value, str | dict):
            raise serializers.ValidationError(RULES_SHAPE)
        return value


class CupCreateSerializer(ClubScopedSerializer):
    """A cup of ``teams`` or ``players`` (seeded at once), or a play-off after
    ``divisions`` whose ``top`` go through (per division or overall)."""

    rules = RulesField(
        required=False,
        help_text="The rule set of the ties: a slug or house rules; default the first "
        "division's, else clabber.",
    )
    teams = IdsField(required=False, max_length=setup.MAX_ENTRANTS, help_text="Team ids.")
    players = IdsField(required=False, max_length=setup.MAX_ENTRANTS, help_text="Player ids.")
    divisions = IdsField(required=False, max_length=50, help_text="Division ids.")
    top = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=10_000)
    per = serializers.ChoiceField(choices=Stage.Per.choices, default=Stage.Per.DIVISION)
    tie_rule = serializers.ChoiceField(choices=Stage.TieRule.choices, default=Stage.TieRule.LOT)
    best_of = serializers.IntegerField(default=1, min_value=0, max_value=99)

    class Meta:
        model = Cup
        fields = [
            "name",
            "rules",
            "entrant_kind",
            "format",
            "best_of",
            "third_place",
            "plate",
            "final_reset",
            "seeding",
            "teams",
            "players",
            "divisions",
            "top",
            "per",
            "tie_rule",
        ]
        validators: list = []
        extra_kwargs = {"name": {"validators": []}}

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        _refuse_typed_seed(self.initial_data)
        club = self.context["club"]
        errors = {}
        for name, model in (("teams", Team), ("players", Player), ("divisions", Division)):
            ids = attrs.get(name) or []
            rows = model.objects.filter(club=club).in_bulk(ids)
            missing = [i for i, pk in enumerate(ids) if pk not in rows]
            if missing:
                errors[f"{name}[{missing[0]}]"] = NO_SUCH.format(thing=name[:-1])
            attrs[name] = [rows[pk] for pk in ids if pk in rows]
        if errors:
            raise serializers.ValidationError(errors)
        return attrs

    def create(self, validated_data: dict[str, Any]) -> Cup:
        request = self.context.get("request")
        return setup.cup_create(
            club=self.context["club"],
            user=getattr(request, "user", None),
            **validated_data,
        )


SEED_TYPED = (
    "A random draw's seed is chosen by the server and committed before the draw: it "
    "cannot be given."
)


def _refuse_typed_seed(data: Any) -> None:
    """A seed in the body is refused (400), never silently ignored."""
    if hasattr(data, "get") and data.get("seed_text") not in (None, ""):
        raise serializers.ValidationError({"seed_text": SEED_TYPED})


class SeedSerializer(serializers.Serializer):
    """Seed again another way; a random seeding reuses the cup's committed seed."""

    seeding = serializers.ChoiceField(choices=Cup.Seeding.choices, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        _refuse_typed_seed(self.initial_data)
        return attrs


class PlaceRoundSerializer(ClubScopedSerializer):
    bracket = serializers.ChoiceField(
        choices=[(b, b) for b in ("main", "losers", "final", "reset", "third", "plate")],
        default="main",
    )
    round = serializers.IntegerField(min_value=1, max_value=30)
    division = serializers.PrimaryKeyRelatedField(
        queryset=Division.objects.all(),
        help_text="The division whose league nights and tables the round is placed on.",
    )
    start = serializers.DateField(required=False, help_text="The first night (default today).")

    class Meta:
        model = Tie
        fields = ["bracket", "round", "division", "start"]


class SideSerializer(serializers.Serializer):
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    known = serializers.BooleanField()
    score = serializers.IntegerField(help_text="Games won (confirmed).")
    winner = serializers.BooleanField()
    absent = serializers.BooleanField(
        required=False, help_text="A table of three: this side did not turn up."
    )


class TieScoreSerializer(serializers.Serializer):
    """Confirmed games won by each side of a tie."""

    home = serializers.IntegerField()
    away = serializers.IntegerField()
    third = serializers.IntegerField(required=False, help_text="A table of three only.")


class TieSerializer(serializers.ModelSerializer):
    """A tie: its sides (``home_from``/``away_from`` say where a side not known yet comes
    from; ``third``/``third_from`` the third side of a table of three, null otherwise),
    state, result, night and table, and its games (side A is home, C the third)."""

    games = serializers.SerializerMethodField()
    score = serializers.SerializerMethodField()

    class Meta:
        model = Tie
        fields = [
            "id",
            "key",
            "bracket",
            "round",
            "home",
            "away",
            "third",
            "home_from",
            "away_from",
            "third_from",
            "absent",
            "status",
            "winner",
            "loser",
            "note",
            "date",
            "venue",
            "table",
            "score",
            "games",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_games(self, tie: Tie) -> list[int]:
        return [tg.game_id for tg in tie.tie_games.all()]

    @extend_schema_field(TieScoreSerializer)
    def get_score(self, tie: Tie) -> dict[str, int]:
        wins, _ = progress.tie_wins(tie, list(tie.tie_games.all()))
        return wins


class BracketTieSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    key = serializers.CharField()
    status = serializers.CharField()
    home = SideSerializer()
    away = SideSerializer()
    third = SideSerializer(
        allow_null=True, required=False, help_text="A table of three: its third player."
    )
    date = serializers.DateField(allow_null=True)
    venue = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    note = serializers.CharField()
    url = serializers.CharField(help_text="The tie's page.")


class BracketSectionSerializer(serializers.Serializer):
    bracket = serializers.CharField()
    round = serializers.IntegerField()
    title = serializers.CharField()
    ties = BracketTieSerializer(many=True)


class BracketSerializer(serializers.Serializer):
    champion = serializers.CharField(allow_null=True)
    sections = BracketSectionSerializer(many=True)


class CupViewSet(
    ClubScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """The club's cups and play-offs. POST creates one (201); a play-off waits for its
    league stage and its knockout is built by a task when the stage is complete."""

    serializer_class = CupSerializer
    queryset = Cup.objects.none()
    filterset_fields = ["status"]

    def get_queryset(self) -> QuerySet[Cup]:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return selectors.cup_list(club=self.club).prefetch_related("entrants", "stages__divisions")

    def get_serializer_class(self):
        return CupCreateSerializer if self.action == "create" else CupSerializer

    def _cup(self, cup: Cup, code: int = status.HTTP_200_OK) -> Response:
        fresh = self.get_queryset().get(pk=cup.pk)
        return Response(CupSerializer(fresh, context=self.get_serializer_context()).data, code)

    @extend_schema(request=CupCreateSerializer, responses={201: CupSerializer, 400: ERROR_BODY})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = CupCreateSerializer(data=request.data, context=self.get_serializer_context())
        body.is_valid(raise_exception=True)
        with transaction.atomic():
            cup = body.save()
        return self._cup(cup, status.HTTP_201_CREATED)

    @extend_schema(request=SeedSerializer, responses={200: CupSerializer, 409: ERROR_BODY})
    @action(detail=True, methods=["post"])
    def seed(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Seed the cup again (another way; a random draw reuses the cup's committed seed):
        not once a tie has a result."""
        cup = self.get_object()
        body = SeedSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        setup.cup_seed(cup=cup, **body.validated_data)
        return self._cup(cup)

    @extend_schema(request=None, responses={200: CupSerializer, 409: ERROR_BODY})
    @action(detail=True, methods=["post"])
    def draw(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Draw the bracket from the seeds (409 once a tie has a result)."""
        setup.cup_draw(cup=self.get_object())
        return self._cup(self.get_object())

    @extend_schema(request=None, responses={202: CupSerializer, 409: ERROR_BODY})
    @action(detail=True, methods=["post"])
    def build(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Build a play-off's knockout from its complete league stage (a task: 202; the
        stage's ``build`` and ``message`` say how it went). 409 while the stage is
        unfinished, with what is missing."""
        cup = self.get_object()
        with transaction.atomic():
            build.stage_build(cup=cup, user=request.user)
        return self._cup(cup, status.HTTP_202_ACCEPTED)

    @extend_schema(responses={200: BracketSerializer})
    @action(detail=True, methods=["get"])
    def bracket(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The bracket as the page draws it: its rounds in order, each tie's sides."""
        view = selectors.cup_bracket_view(cup=self.get_object())
        view.pop("cup")
        return Response(BracketSerializer(view).data)

    @extend_schema(
        request=PlaceRoundSerializer,
        responses={200: TieSerializer(many=True), 409: ERROR_BODY},
    )
    @action(detail=True, methods=["post"], url_path="place-round")
    def place_round(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Put a round's ties still to play on a division's league nights and tables, with
        the league's clash checks."""
        cup = self.get_object()
        body = PlaceRoundSerializer(data=request.data, context=self.get_serializer_context())
        body.is_valid(raise_exception=True)
        ties = placing.round_place(cup=cup, **body.validated_data)
        rows = Tie.objects.filter(pk__in=[t.pk for t in ties]).prefetch_related("tie_games__game")
        return Response(TieSerializer(rows, many=True).data)


class StartSerializer(ClubScopedSerializer):
    seats = IdsField(
        required=False,
        max_length=MAX_SEATS,
        help_text="The players at the table clockwise (side A = home first); default the "
        "teams' players in their order.",
    )
    first_dealer = serializers.IntegerField(required=False, min_value=0, max_value=MAX_SEATS)

    class Meta:
        model = Tie
        fields = ["seats", "first_dealer"]

    def validate_seats(self, ids: list[int]) -> list[Player]:
        rows = Player.objects.filter(club=self.context["club"]).in_bulk(ids)
        if any(pk not in rows for pk in ids):
            raise serializers.ValidationError(NO_SUCH.format(thing="player"))
        return [rows[pk] for pk in ids]


class WalkoverSerializer(serializers.Serializer):
    absent = serializers.ChoiceField(
        choices=[("home", "home"), ("away", "away"), ("third", "third")],
        help_text="The side that did not play (third: at a table of three, where one absent "
        "leaves the other two to play heads-up).",
    )
    note = serializers.CharField(required=False, allow_blank=True, max_length=200)


class PlaceSerializer(ClubScopedSerializer):
    date = serializers.DateField(allow_null=True)
    venue = serializers.PrimaryKeyRelatedField(
        queryset=Venue.objects.all(), required=False, allow_null=True
    )
    table = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=500)

    class Meta:
        model = Tie
        fields = ["date", "venue", "table"]


class TieViewSet(
    ClubScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """A cup's ties in bracket order, and playing them: start the next game (a game outside
    the league, counted in no table), a walkover, a night and table."""

    serializer_class = TieSerializer
    queryset = Tie.objects.none()
    filterset_fields = ["bracket", "round", "status"]

    def get_queryset(self) -> QuerySet[Tie]:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        cup = get_object_or_404(Cup.objects.filter(club=self.club), pk=self.kwargs["cup_id"])
        return cup.ties.prefetch_related("tie_games__game").order_by("order")

    def _tie(self, tie: Tie) -> Response:
        return Response(TieSerializer(self.get_queryset().get(pk=tie.pk)).data)

    @extend_schema(request=StartSerializer, responses={201: GameSerializer, 409: ERROR_BODY})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Start the tie's next game; its deals are recorded as any game's."""
        tie = self.get_object()
        body = StartSerializer(data=request.data, context=self.get_serializer_context())
        body.is_valid(raise_exception=True)
        game = progress.tie_game_start(
            tie=tie,
            seats=body.validated_data.get("seats"),
            first_dealer=body.validated_data.get("first_dealer"),
            user=request.user,
        )
        return Response(
            GameSerializer(game, context=self.get_serializer_context()).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=WalkoverSerializer, responses={200: TieSerializer, 409: ERROR_BODY})
    @action(detail=True, methods=["post"])
    def walkover(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The absent side loses; the other goes through."""
        tie = self.get_object()
        body = WalkoverSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        progress.tie_walkover(tie=tie, user=request.user, **body.validated_data)
        return self._tie(tie)

    @extend_schema(request=PlaceSerializer, responses={200: TieSerializer, 409: ERROR_BODY})
    @action(detail=True, methods=["post"])
    def place(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Put the tie on a night and a table, with the league's clash checks."""
        tie = self.get_object()
        body = PlaceSerializer(data=request.data, context=self.get_serializer_context())
        body.is_valid(raise_exception=True)
        data = body.validated_data
        placing.tie_place(
            tie=tie, date=data["date"], venue=data.get("venue"), table=data.get("table")
        )
        return self._tie(tie)


# Request bodies' examples in the schema, by component (``core.schema``).
REQUEST_EXAMPLES = {
    "CupCreateRequest": {
        "name": "Spring play-offs",
        "divisions": [1],
        "top": 4,
        "per": "division",
        "tie_rule": "lot",
        "best_of": 1,
        "third_place": True,
    },
    "SeedRequest": {"seeding": "random"},
    "PlaceRoundRequest": {"bracket": "main", "round": 1, "division": 1, "start": "2027-05-03"},
    "StartRequest": {"seats": [1, 3, 2, 4], "first_dealer": 0},
    "WalkoverRequest": {"absent": "away", "note": "Could not raise a side"},
    "PlaceRequest": {"date": "2027-05-03", "venue": 1, "table": 2},
}
