"""API of club nights: events, series, check-in, rounds and their draw, tables, the night's
ranking and prizes, and a series' ranking. Everything under ``/api/clubs/{club_slug}/``.

Writes call the events services (the same ones the secretary's pages call) and never
write rows here; reads call :mod:`.selectors`. Club admins write; reading follows the
club's visibility. Rejected writes answer 400 (409 for a conflict with stored state)
with ``{"errors": [{"field", "message"}]}``, like the rest of the API.

Drawing a round (``POST .../events/{event_id}/rounds/``) answers 201 with the round when
it was drawn in the request, or 202 with the round still ``drawing`` when a large draw
runs as a task: GET the round until it is ``playing`` (its ``progress`` goes 0 to 100).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from clabber_league.calculator.api import ERROR_BODY
from clabber_league.calculator.payloads import SIDES, PerSideField
from clabber_league.clubs.api_base import ClubScopedMixin, ClubScopedModelViewSet
from clabber_league.clubs.models import Player
from clabber_league.clubs.privacy import sees_names
from clabber_league.clubs.serializers_base import ClubScopedSerializer
from clabber_league.core.commitments import seed_hash
from clabber_league.core.errors import ServiceError
from clabber_league.core.idempotency import idempotent

from . import selectors
from .models import MAX_ROUNDS, Entry, Event, Round, Series, Table
from .services import checkin, rounds
from .services import events as event_services

NO_SUCH_EVENT = "No such event in this club."
ROUND_NUMBER = "A round's number, 1 to 30."
PLAYER_OR_NAME = "Give a player (id) to tick a member, or a name to add a walk-in."


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "description": "A built-in rule set's slug.", "example": "clabber"},
            {
                "type": "object",
                "description": "House rules: a base rule set and options.",
                "additionalProperties": True,
            },
        ]
    }
)
class RulesField(serializers.JSONField):
    """A rule set's slug, or house-rules data (``{"base": ..., "options": {...}}``)."""


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
        "maxItems": 200,
    }
)
class KeepApartField(serializers.JSONField):
    """Pairs of player ids the draw keeps apart."""


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 1, "maximum": 100},
        "maxItems": 20,
    }
)
class PrizeSharesField(serializers.JSONField):
    """The prize rule 'shares': percentages of the fund, best place first."""


# --- events and series ---------------------------------------------------------------------

EVENT_WRITE_FIELDS = [
    "name",
    "kind",
    "date",
    "rules",
    "format",
    "rounds",
    "round_kind",
    "round_deals",
    "round_minutes",
    "table_plan",
    "ranking",
    "sit_out_rule",
    "sit_out_score",
    "entry_fee_cents",
    "prize_rule",
    "prize_shares",
    "hick_stake_cents",
    "keep_apart",
    "series",
]


class EventSerializer(ClubScopedSerializer):
    """A club night or open tournament, written by ``event_create`` / ``event_update``."""

    rules = RulesField(help_text="A rule set's slug, or house rules (base and options).")
    keep_apart = KeepApartField(
        required=False, help_text="Pairs of player ids the draw never seats at one table."
    )
    prize_shares = PrizeSharesField(
        required=False,
        help_text="With prize_rule 'shares': whole percentages of the fund, best place "
        "first, adding up to 100 or less (what is left is not paid out).",
    )
    series = serializers.PrimaryKeyRelatedField(
        queryset=Series.objects.all(), required=False, allow_null=True
    )

    seed_hash = serializers.SerializerMethodField(
        help_text="SHA-256 (hex) of the committed seed of the next round to be drawn, "
        "chosen by the server; the seed itself is shown on the round once it is drawn."
    )

    class Meta:
        model = Event
        fields = ["id", *EVENT_WRITE_FIELDS, "seed_hash", "status", "created_at"]
        read_only_fields = ["seed_hash", "status", "created_at"]
        extra_kwargs = {
            "rounds": {"min_value": 1, "max_value": 30},
            "round_deals": {"min_value": 1, "max_value": 200},
            "round_minutes": {"min_value": 1, "max_value": 600},
            "sit_out_score": {"min_value": 0, "max_value": 10000},
            "entry_fee_cents": {"min_value": 0, "max_value": 100000},
            "hick_stake_cents": {"min_value": 0, "max_value": 100000},
        }

    def get_seed_hash(self, event: Event) -> str | None:
        if event.status == Event.Status.FINISHED:
            return None
        return seed_hash(event_services.committed_seed(event))

    def create(self, validated_data: dict[str, Any]) -> Event:
        request = self.context["request"]
        return event_services.event_create(
            club=self.context["club"], user=request.user, **validated_data
        )

    def update(self, instance: Event, validated_data: dict[str, Any]) -> Event:
        return event_services.event_update(event=instance, **validated_data)


class SeriesSerializer(ClubScopedSerializer):
    """A season of nights, written by ``series_create`` / ``series_update``."""

    nights = serializers.SerializerMethodField(help_text="How many events belong to it.")

    class Meta:
        model = Series
        fields = ["id", "name", "method", "best_of", "min_attendance", "nights", "created_at"]
        read_only_fields = ["created_at"]
        extra_kwargs = {
            "best_of": {"min_value": 1, "max_value": 100},
            "min_attendance": {"min_value": 0, "max_value": 100},
        }

    def get_nights(self, series: Series) -> int:
        annotated = getattr(series, "nights", None)
        return annotated if isinstance(annotated, int) else series.events.count()

    def create(self, validated_data: dict[str, Any]) -> Series:
        return event_services.series_create(club=self.context["club"], **validated_data)

    def update(self, instance: Series, validated_data: dict[str, Any]) -> Series:
        return event_services.series_update(series=instance, **validated_data)


# --- rankings and money (read) -------------------------------------------------------------


#: A ranking line's score in each round, by round number ("1" to "30"): named keys, each
#: there once the player's round has a score (``RoundScores`` in the schema).
RoundScoresSerializer = type(
    "RoundScoresSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "The score of each round the player has one for, by round number.",
        **{
            str(number): serializers.FloatField(required=False)
            for number in range(1, MAX_ROUNDS + 1)
        },
    },
)


@extend_schema_field(RoundScoresSerializer)
class RoundScoresField(serializers.DictField):
    """A score per round number (``RoundScores``)."""

    child = serializers.FloatField()


class RankingLineSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="The place is shared with others level.")
    player = serializers.IntegerField(help_text="The player's id (a pair's id on pairs nights).")
    name = serializers.CharField()
    points = serializers.FloatField(
        help_text="The night's score in the event's ranking method's units (whole points, "
        "or per cent of the table with two decimals at most)."
    )
    won = serializers.IntegerField(help_text="Rounds won.")
    played = serializers.IntegerField(help_text="Rounds played.")
    sat_out = serializers.IntegerField(help_text="Rounds sat out (scored by the event's rule).")
    best_round = serializers.FloatField()
    rounds = RoundScoresField(help_text="The score of each round, by round number.")
    tiebreak = serializers.CharField(
        help_text="What put this line above the next one level on points: won, "
        "head_to_head or best_round ('' when not level or sharing the place)."
    )
    reason = serializers.CharField(help_text="The same in words.")


class RankingSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    live = serializers.BooleanField(help_text="Games in progress count their points so far.")
    pairs = serializers.BooleanField(help_text="A fixed-pairs night ranks its pairs.")
    rounds = serializers.ListField(child=serializers.IntegerField())
    method = serializers.ChoiceField(
        choices=Event.Ranking.choices, help_text="How a round at a table scores."
    )
    rule = serializers.CharField(help_text="How the night ranks, in words.")
    lines = RankingLineSerializer(many=True)


class AwardSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    position = serializers.IntegerField()
    places = serializers.ListField(
        child=serializers.IntegerField(), help_text="The prize places this player's place covers."
    )
    shared_by = serializers.IntegerField()
    amount_cents = serializers.IntegerField()


class PrizesSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    rule = serializers.CharField(help_text="The prize rule in words.")
    players = serializers.IntegerField()
    entries = serializers.IntegerField(help_text="Players checked in.")
    paid = serializers.IntegerField(help_text="Players who paid the entry fee.")
    entry_fee_cents = serializers.IntegerField()
    takings_cents = serializers.IntegerField()
    hick_pot_cents = serializers.IntegerField()
    fund_cents = serializers.IntegerField()
    prizes_cents = serializers.ListField(
        child=serializers.IntegerField(), help_text="Each prize place's amount, best first."
    )
    paid_out_cents = serializers.IntegerField()
    kept_cents = serializers.IntegerField(help_text="The club's part and what rounding left.")
    awards = AwardSerializer(many=True)
    provisional = serializers.BooleanField(help_text="Games are still being played.")


class SeriesLineSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="0 for players under the minimum attendance.")
    shared = serializers.BooleanField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    score = serializers.CharField(help_text="Total, average (one decimal) or best-N total.")
    attended = serializers.IntegerField()
    total = serializers.IntegerField()
    best_night = serializers.IntegerField()
    nights = serializers.DictField(
        child=serializers.IntegerField(), help_text="Points per night (event id)."
    )
    counted = serializers.ListField(
        child=serializers.IntegerField(), help_text="The nights (event ids) that count."
    )
    reason = serializers.CharField()


class SeriesRankingSerializer(serializers.Serializer):
    series = serializers.IntegerField()
    rule = serializers.CharField()
    nights = serializers.ListField(child=serializers.IntegerField())
    ranked = SeriesLineSerializer(many=True)
    unranked = SeriesLineSerializer(many=True)


def ranking_data(ranking: selectors.NightRanking) -> dict[str, Any]:
    from .ranking import ranking_rule

    event = ranking.event

    return {
        "event": ranking.event.pk,
        "live": ranking.live,
        "pairs": ranking.pairs,
        "rounds": ranking.rounds,
        "method": event.ranking,
        "rule": ranking_rule(event.ranking, event.sit_out_rule, event.sit_out_score),
        "lines": [
            {
                "position": line.position,
                "shared": line.shared,
                "player": line.player,
                "name": line.name,
                "points": line.points,
                "won": line.won,
                "played": line.played,
                "sat_out": line.sat_out,
                "best_round": line.best_round,
                "rounds": {str(k): v for k, v in line.rounds.items()},
                "tiebreak": line.tiebreak,
                "reason": line.reason,
            }
            for line in ranking.lines
        ],
    }


def prizes_data(result: selectors.EventMoney) -> dict[str, Any]:
    money = result.prize_list
    names = {line.player: line.name for line in result.ranking.lines}
    return {
        "event": result.ranking.event.pk,
        "rule": money.rule.describe(),
        "players": money.players,
        "entries": result.entries,
        "paid": result.paid,
        "entry_fee_cents": result.ranking.event.entry_fee_cents,
        "takings_cents": money.takings,
        "hick_pot_cents": money.hick_pot,
        "fund_cents": money.fund,
        "prizes_cents": list(money.prizes),
        "paid_out_cents": money.paid_out,
        "kept_cents": money.kept,
        "awards": [
            {
                "player": award.player,
                "name": names.get(award.player, ""),
                "position": award.position,
                "places": list(award.places),
                "shared_by": award.shared_by,
                "amount_cents": award.amount,
            }
            for award in money.awards
            if award.amount
        ],
        "provisional": result.ranking.live,
    }


def series_line_data(line: Any) -> dict[str, Any]:
    return {
        "position": line.position,
        "shared": line.shared,
        "player": line.player,
        "name": line.name,
        "score": line.score_display,
        "attended": line.attended,
        "total": line.total,
        "best_night": line.best_night,
        "nights": {str(k): v for k, v in line.nights.items()},
        "counted": sorted(line.counted),
        "reason": line.reason,
    }


def _to_member(view: Any) -> bool:
    return sees_names(getattr(view, "club_access", None))


class EventViewSet(ClubScopedModelViewSet):
    """A club's nights and open tournaments. Club admins create and change them; the
    ranking and the prize list are read by anyone who may read the club."""

    serializer_class = EventSerializer
    queryset = Event.objects.none()
    filterset_fields = ["status", "kind", "series", "date"]
    #: ``?ordering=`` (``core.filtering``): by date or creation.
    ordering_fields = ["date", "created_at"]
    http_method_names = ["get", "post", "put", "patch", "head", "options"]

    def queryset_for_club(self, club) -> QuerySet[Event]:
        return selectors.event_list(club=club)

    @extend_schema(request=EventSerializer, responses={201: EventSerializer, 400: ERROR_BODY})
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().create(request, *args, **kwargs)

    @extend_schema(responses={200: RankingSerializer})
    @action(detail=True, methods=["get"])
    def ranking(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The night's ranking, live while games are played, each tie explained."""
        event = self.get_object()
        return Response(ranking_data(selectors.event_ranking(event, to_member=_to_member(self))))

    @extend_schema(responses={200: PrizesSerializer})
    @action(detail=True, methods=["get"])
    def prizes(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The takings, the hick pot and the prizes by the event's rule."""
        event = self.get_object()
        return Response(prizes_data(selectors.event_money(event, to_member=_to_member(self))))


class SeriesViewSet(ClubScopedModelViewSet):
    """Seasons of nights: each ranks its events' players by total, average or best N."""

    serializer_class = SeriesSerializer
    queryset = Series.objects.none()
    filterset_fields = ["method"]
    http_method_names = ["get", "post", "put", "patch", "head", "options"]

    def queryset_for_club(self, club) -> QuerySet[Series]:
        return selectors.series_list(club=club)

    @extend_schema(request=SeriesSerializer, responses={201: SeriesSerializer, 400: ERROR_BODY})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().create(request, *args, **kwargs)

    @extend_schema(responses={200: SeriesRankingSerializer})
    @action(detail=True, methods=["get"])
    def ranking(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The series' ranking; players under the minimum attendance are listed apart."""
        view = selectors.series_view(self.get_object(), to_member=_to_member(self))
        return Response(
            {
                "series": view.series.pk,
                "rule": view.ranking.describe(),
                "nights": [e.pk for e in view.events],
                "ranked": [series_line_data(line) for line in view.ranking.ranked],
                "unranked": [series_line_data(line) for line in view.ranking.unranked],
            }
        )


# --- under one event: entries, rounds, tables ----------------------------------------------


class EventScopedMixin(ClubScopedMixin):
    """The event comes from the URL (``event_id``), looked up in the club."""

    def event(self) -> Event:
        if not hasattr(self, "_event"):
            found = Event.objects.filter(club=self.club, pk=self.kwargs["event_id"]).first()
            if found is None:
                raise NotFound(NO_SUCH_EVENT)
            self._event = found
        return self._event


class EntrySerializer(serializers.ModelSerializer):
    name = serializers.SerializerMethodField()

    class Meta:
        model = Entry
        fields = [
            "id",
            "player",
            "name",
            "checked_in",
            "checked_in_at",
            "joins_from_round",
            "left_after_round",
            "paid",
        ]
        read_only_fields = fields

    def get_name(self, entry: Entry) -> str:
        return entry.player.shown_name(to_member=bool(self.context.get("to_member")))


class CheckInSerializer(ClubScopedSerializer):
    """Tick a member (``player``) or add a walk-in by ``name`` (matched to the club's
    players whatever its case, else a new player)."""

    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, help_text="A player of the club."
    )
    name = serializers.CharField(
        max_length=120, required=False, help_text="A walk-in's name, when no player is given."
    )
    paid = serializers.BooleanField(required=False, help_text="They paid the entry fee.")

    class Meta:
        model = Entry
        fields = ["player", "name", "paid"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs.get("player") and not (attrs.get("name") or "").strip():
            raise serializers.ValidationError(
                {"errors": [{"field": "player", "message": PLAYER_OR_NAME}]}
            )
        return attrs


@extend_schema_serializer(component_name="EntryPayment")  # not named like its one field
class PaidSerializer(serializers.Serializer):
    paid = serializers.BooleanField(help_text="They paid the entry fee (or not).")


class EntryViewSet(
    EventScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """Check-in on the night: tick members as they arrive, add walk-ins by name; a
    leaver is dropped from the next round; who paid the entry fee."""

    serializer_class = EntrySerializer
    queryset = Entry.objects.none()
    filterset_fields = ["checked_in", "paid"]
    write_need = "manage"

    def get_queryset(self) -> QuerySet[Entry]:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return self.event().entries.select_related("player").order_by("player__name", "id")

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        context["to_member"] = _to_member(self)
        return context

    def _entry(self, entry: Entry, code: int = status.HTTP_200_OK) -> Response:
        entry = Entry.objects.select_related("player").get(pk=entry.pk)
        return Response(EntrySerializer(entry, context=self.get_serializer_context()).data, code)

    @extend_schema(request=CheckInSerializer, responses={201: EntrySerializer, 400: ERROR_BODY})
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Check a player in (409 when they are already checked in)."""
        event = self.event()
        body = CheckInSerializer(data=request.data, context=self.get_serializer_context())
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if data.get("player"):
            entry = checkin.entry_check_in(event=event, player=data["player"])
        else:
            entry = checkin.entry_walk_in(event=event, name=data["name"])
        if "paid" in data:
            entry = checkin.entry_paid_set(event=event, player=entry.player, paid=data["paid"])
        return self._entry(entry, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: EntrySerializer, 204: None, 400: ERROR_BODY})
    @action(detail=True, methods=["post"])
    def leave(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The player leaves: they finish the round drawn and are not drawn again (before
        any round is drawn their entry is removed: 204)."""
        entry = self.get_object()
        left = checkin.entry_leave(event=self.event(), player=entry.player)
        if left is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return self._entry(left)

    @extend_schema(request=PaidSerializer, responses={200: EntrySerializer, 400: ERROR_BODY})
    @action(detail=True, methods=["post"])
    def paid(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Record that the player paid the entry fee (or did not)."""
        entry = self.get_object()
        body = PaidSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        updated = checkin.entry_paid_set(
            event=self.event(), player=entry.player, paid=body.validated_data["paid"]
        )
        return self._entry(updated)


#: A table's state at a club night (``TableStatusEnum``).
TABLE_STATUSES = ["waiting", "playing", "finished"]


class TableSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="0, 1, 2 ... clockwise.")
    where = serializers.CharField(help_text="North, East, South, West at a table of four.")
    player = serializers.IntegerField()
    name = serializers.CharField()
    side = serializers.ChoiceField(choices=SIDES, help_text="A, B or C; partners share a side.")
    deals_first = serializers.BooleanField()


class TableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(help_text="The round's number.")
    number = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True, help_text="The game's id (deal entry).")
    status = serializers.ChoiceField(
        choices=TABLE_STATUSES, help_text="waiting, playing or finished."
    )
    deals = serializers.IntegerField(help_text="Deals recorded so far.")
    scores = PerSideField(help_text="Per side (0 each while the table waits).")
    seats = TableSeatSerializer(many=True)


def table_data(view: selectors.TableView) -> dict[str, Any]:
    return {
        "id": view.table.pk,
        "round": view.table.round.number,
        "number": view.table.number,
        "game": view.table.game_id,
        "status": view.status,
        "deals": view.deals,
        # A waiting table has no game yet: 0 for each of its sides.
        "scores": dict(view.scores) or {seat["side"]: 0 for seat in view.seats},
        "seats": [{k: v for k, v in seat.items()} for seat in view.seats],
    }


class RoundSerializer(serializers.ModelSerializer):
    tables = serializers.SerializerMethodField()
    sit_outs = serializers.SerializerMethodField()
    seed = serializers.SerializerMethodField(
        help_text="The seed the round was drawn from: null until it is drawn (a draw being "
        "made or failed keeps it secret; drawing again reuses it)."
    )
    seed_hash = serializers.SerializerMethodField(
        help_text="SHA-256 (hex) of the round's seed, the commitment shown before the draw."
    )

    class Meta:
        model = Round
        fields = [
            "id",
            "number",
            "seed",
            "seed_hash",
            "draw_algorithm",
            "draw_input",
            "status",
            "progress",
            "message",
            "notes",
            "created_at",
            "time_called_at",
            "finished_at",
            "tables",
            "sit_outs",
        ]
        read_only_fields = fields

    def _view(self, round_: Round) -> selectors.RoundView:
        cache = self.context.setdefault("_views", {})
        if round_.pk not in cache:
            cache[round_.pk] = selectors.round_view(
                round_, to_member=bool(self.context.get("to_member"))
            )
        return cache[round_.pk]

    def get_seed(self, round_: Round) -> str | None:
        drawn = round_.status in (Round.Status.PLAYING, Round.Status.FINISHED)
        return round_.seed if drawn else None

    def get_seed_hash(self, round_: Round) -> str:
        if round_.seed:
            return seed_hash(round_.seed)
        # Not drawn yet (being drawn, or failed): the commitment it will be drawn from.
        return seed_hash(event_services.committed_seed(round_.event))

    @extend_schema_field(TableSerializer(many=True))
    def get_tables(self, round_: Round) -> list[dict[str, Any]]:
        return [table_data(view) for view in self._view(round_).tables]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_sit_outs(self, round_: Round) -> list[str]:
        return list(self._view(round_).sit_outs)


class DrawCheckSerializer(serializers.Serializer):
    """A round drawn again from its published seed and record, compared with its tables."""

    number = serializers.IntegerField()
    seed = serializers.CharField(allow_null=True)
    seed_hash = serializers.CharField()
    algorithm = serializers.CharField()
    ok = serializers.BooleanField(help_text="Drawing it again gives its stored tables.")
    message = serializers.CharField(help_text="Why not, when not ok.")


class RoundViewSet(
    EventScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """An event's rounds. POST draws the next one (club admins): 201 when drawn in the
    request, 202 while a large draw runs as a task (GET it for its progress). Refused
    (409) while the previous round's games are unfinished."""

    serializer_class = RoundSerializer
    queryset = Round.objects.none()
    filterset_fields = ["status", "number"]
    write_need = "manage"

    def get_queryset(self) -> QuerySet[Round]:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return self.event().round_set.order_by("number")

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        context["to_member"] = _to_member(self)
        return context

    @extend_schema(
        request=None,
        responses={201: RoundSerializer, 202: RoundSerializer, 400: ERROR_BODY},
    )
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Draw the event's next round."""
        drawn = rounds.round_draw(event=self.event(), user=request.user, access=self.club_access)
        drawn.refresh_from_db()
        code = (
            status.HTTP_202_ACCEPTED
            if drawn.status == Round.Status.DRAWING
            else status.HTTP_201_CREATED
        )
        return Response(RoundSerializer(drawn, context=self.get_serializer_context()).data, code)

    @extend_schema(responses={200: DrawCheckSerializer})
    @action(detail=True, methods=["get"])
    def check(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Draw the round again from its published seed, entrants, table size, history and
        the planner's version it names, and say whether it comes out as stored."""
        from dataclasses import asdict

        from .draw_check import round_check

        return Response(DrawCheckSerializer(asdict(round_check(self.get_object()))).data)

    def _round(self, round_: Round) -> Response:
        round_.refresh_from_db()
        return Response(RoundSerializer(round_, context=self.get_serializer_context()).data)

    @extend_schema(request=None, responses={200: RoundSerializer, 400: ERROR_BODY})
    @action(detail=True, methods=["post"], url_path="call-time")
    def call_time(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Time is up in a timed round: every game finishes after the deal in progress."""
        return self._round(rounds.round_call_time(round_=self.get_object(), user=request.user))

    @extend_schema(request=None, responses={200: RoundSerializer, 400: ERROR_BODY})
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Close a round whose games are all over (409 while one is in play); the games
        are confirmed for the club; after the last round the event is finished."""
        finished = rounds.round_finish(
            round_=self.get_object(), user=request.user, access=self.club_access
        )
        return self._round(finished)


class TableViewSet(EventScopedMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """The tables of an event's rounds (``?round=`` for one round): who sits where, who
    deals first, the game and how far it has got."""

    serializer_class = TableSerializer
    queryset = Table.objects.none()

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "round",
                OpenApiTypes.INT,
                OpenApiParameter.QUERY,
                description="The round's number; the latest round when not given.",
            )
        ],
        responses={200: TableSerializer(many=True), 400: ERROR_BODY},
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The tables of one round (``?round=<number>``, the latest round by default), in
        order, a page at a time (``page``, ``page_size``)."""
        event = self.event()
        number = request.query_params.get("round")
        found = event.round_set.order_by("-number")
        if number is not None:
            if not number.isdigit() or not 1 <= int(number) <= MAX_ROUNDS:
                raise ServiceError.one("round", ROUND_NUMBER)
            found = found.filter(number=int(number))
        round_ = found.first()
        tables: list[dict[str, Any]] = []
        if round_ is not None:
            view = selectors.round_view(round_, to_member=_to_member(self))
            tables = [table_data(t) for t in view.tables]
        return self.get_paginated_response(self.paginate_queryset(tables))


# Request bodies' examples in the schema, by component (``core.schema``).
REQUEST_EXAMPLES = {
    "EventRequest": {
        "name": "Tuesday klaverjas night",
        "kind": "night",
        "date": "2027-01-12",
        "rules": "clabber",
        "format": "individual",
        "rounds": 4,
        "round_kind": "deals",
        "round_deals": 16,
        "sit_out_rule": "average",
        "entry_fee_cents": 500,
        "prize_rule": "shares",
        "prize_shares": [50, 30, 20],
        "hick_stake_cents": 10,
        "series": 1,
    },
    "SeriesRequest": {"name": "Winter 2027", "method": "best", "best_of": 6, "min_attendance": 3},
    "CheckInRequest": {"name": "Jan de Vries", "paid": True},
    "EntryPaymentRequest": {"paid": True},
}
