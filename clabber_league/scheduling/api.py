"""API of scheduling: venues, fixtures (with postpone/move and forfeit), each division's
schedule config, and schedule runs (POST one to generate: 202 with its id, then poll it).

Club admins write; reading follows the club's visibility. Rejected writes answer 400 with
``{"errors": [{"field", "message"}]}``, like the rest of the API.
"""

from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from clabber_league.calculator.api import ERROR_BODY
from clabber_league.clubs.api_base import ClubScopedMixin, ClubScopedModelViewSet
from clabber_league.clubs.serializers_base import ClubScopedSerializer
from clabber_league.core.api import Conflict
from clabber_league.core.idempotency import idempotent
from clabber_league.leagues.models import Division, Team, Venue
from clabber_league.leagues.services import venue_create, venue_update

from . import feeds
from .models import Fixture, ScheduleConfig, ScheduleRun
from .services.fixture_changes import (
    fixture_create,
    fixture_delete,
    fixture_forfeit,
    fixture_move,
    fixture_update,
    home_venue,
)
from .services.generation import (
    schedule_config_save,
    schedule_generate,
    schedule_run_retry,
    schedule_run_stalled,
)


class VenueSerializer(ClubScopedSerializer):
    """A venue, written by ``venue_create`` / ``venue_update`` as on the page."""

    class Meta:
        model = Venue
        fields = ["id", "name", "tables"]
        validators: list = []

    def create(self, validated_data: dict[str, Any]) -> Venue:
        return venue_create(club=self.context["club"], **validated_data)

    def update(self, instance: Venue, validated_data: dict[str, Any]) -> Venue:
        return venue_update(venue=instance, **validated_data)


class FixtureSerializer(ClubScopedSerializer):
    """A fixture. Created through ``fixture_create`` (the night's checks of a
    generated schedule); its status follows its moves, forfeit and games."""

    class Meta:
        model = Fixture
        fields = [
            "id",
            "division",
            "round_number",
            "home",
            "away",
            "date",
            "venue",
            "table",
            "games_planned",
            "status",
            "original_date",
            "forfeit_winner",
            "note",
            "flagged_at",
            "updated_at",
        ]
        read_only_fields = [
            "status",
            "original_date",
            "forfeit_winner",
            "note",
            "flagged_at",
            "updated_at",
        ]
        extra_kwargs = {"games_planned": {"required": False}}

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        sent = self.initial_data.get("status") if isinstance(self.initial_data, dict) else None
        if self.instance is None and sent not in (None, *NEW_STATUSES):
            raise serializers.ValidationError(
                {"errors": [{"field": "status", "message": USE_ACTION_STATUS}]}
            )
        return attrs

    def create(self, validated_data: dict[str, Any]) -> Fixture:
        return fixture_create(user=self.context["request"].user, **validated_data)


#: Fields a plain update may not change: moving goes through ``postpone`` (the team and
#: table checks of ``fixture_move``), a result through ``forfeit`` or the games.
MOVED_BY_ACTION = {
    "date": "postpone",
    "venue": "postpone",
    "table": "postpone",
    "status": "postpone or forfeit",
}
#: The statuses a new fixture may be sent with: it is one of them whatever is sent.
NEW_STATUSES = (Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED)
USE_ACTION = "Change it with POST .../fixtures/<id>/{action}/, which checks the night."
USE_ACTION_STATUS = "The status follows its moves, forfeit and games; it is not set directly."
CONFIG_EXISTS = "This division already has a schedule config."


class FixtureUpdateSerializer(FixtureSerializer):
    """A plain update (PUT/PATCH): round, teams and games planned
    (``fixture_update``). Date, venue and table change through the ``postpone``
    action; sending their current values is fine."""

    class Meta(FixtureSerializer.Meta):
        read_only_fields = [*FixtureSerializer.Meta.read_only_fields, *MOVED_BY_ACTION]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        current = FixtureSerializer(self.instance).data
        errors = []
        for name, action_name in MOVED_BY_ACTION.items():
            if name in self.initial_data and str(self.initial_data[name]) != str(current[name]):
                message = (
                    USE_ACTION_STATUS if name == "status" else USE_ACTION.format(action=action_name)
                )
                errors.append({"field": name, "message": message})
        if errors:
            raise serializers.ValidationError({"errors": errors})
        return attrs

    def update(self, instance: Fixture, validated_data: dict[str, Any]) -> Fixture:
        return fixture_update(fixture=instance, user=self.context["request"].user, **validated_data)


class FixtureMoveSerializer(ClubScopedSerializer):
    date = serializers.DateField(
        allow_null=True, help_text="The new night; null postpones it to a date to be arranged."
    )
    venue = serializers.PrimaryKeyRelatedField(
        queryset=Venue.objects.all(), allow_null=True, required=False
    )
    table = serializers.IntegerField(min_value=1, allow_null=True, required=False)
    note = serializers.CharField(max_length=200, required=False, allow_blank=True)
    on_no_play_night = serializers.BooleanField(
        required=False,
        default=False,
        help_text="A night the division does not play (a skip date of its schedule) is "
        "refused unless this says the fixture is played then anyway.",
    )

    class Meta:
        model = Fixture
        fields = ["date", "venue", "table", "note", "on_no_play_night"]

    def get_fields(self) -> dict[str, serializers.Field]:
        """The club's venues, and the home team's own venue when it plays elsewhere (an
        inter-club team at its home club's: ``fixture_changes.home_venue``), as the page
        offers."""
        fields = super().get_fields()
        fixture = self.context.get("fixture")
        home = home_venue(fixture.division, fixture.home) if fixture is not None else None
        if home is not None:
            field = fields["venue"]
            field.queryset = Venue.objects.filter(Q(pk__in=field.queryset) | Q(pk=home.pk))
        return fields


class FixtureForfeitSerializer(ClubScopedSerializer):
    winner = serializers.PrimaryKeyRelatedField(
        queryset=Team.objects.all(), help_text="The team that wins by forfeit or walkover."
    )
    kind = serializers.ChoiceField(choices=["forfeit", "walkover"], default="forfeit")
    note = serializers.CharField(max_length=150, required=False, allow_blank=True)

    class Meta:
        model = Fixture
        fields = ["winner", "kind", "note"]


class VenueViewSet(ClubScopedModelViewSet):
    serializer_class = VenueSerializer
    queryset = Venue.objects.none()

    def queryset_for_club(self, club) -> QuerySet[Venue]:
        return club.venues.all()


class FixtureViewSet(ClubScopedModelViewSet):
    """A club's fixtures. Club admins postpone, move and forfeit them."""

    serializer_class = FixtureSerializer
    queryset = Fixture.objects.none()
    filterset_fields = ["division", "round_number", "status", "home", "away", "date", "venue"]
    #: ``?ordering=`` (``core.filtering``): by night, round or last change.
    ordering_fields = ["date", "round_number", "updated_at"]
    #: ``?updated_since=``: fixtures moved, forfeited or whose result was decided since.
    updated_since_field = "updated_at"

    def queryset_for_club(self, club) -> QuerySet[Fixture]:
        return club.fixtures.select_related("home", "away", "venue")

    def get_serializer_class(self):
        if self.action in ("update", "partial_update"):
            return FixtureUpdateSerializer
        return FixtureSerializer

    @extend_schema(
        request=FixtureUpdateSerializer, responses={200: FixtureSerializer, 400: ERROR_BODY}
    )
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Round, teams and games planned. Date, venue and table are read-only here: move
        the fixture with ``postpone``, which checks the teams and the table that night."""
        return super().update(request, *args, **kwargs)

    @extend_schema(
        request=FixtureUpdateSerializer, responses={200: FixtureSerializer, 400: ERROR_BODY}
    )
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().partial_update(request, *args, **kwargs)

    @extend_schema(responses={204: None, 409: ERROR_BODY})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Delete a fixture without a result; one that is played, forfeit or has games is
        part of the standings and stays."""
        fixture_delete(fixture=self.get_object(), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request=FixtureMoveSerializer, responses={200: FixtureSerializer, 400: ERROR_BODY}
    )
    @action(detail=True, methods=["post"])
    def postpone(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Postpone (``date`` null) or move the fixture to another night, venue or table."""
        fixture = self.get_object()
        context = {**self.get_serializer_context(), "fixture": fixture}
        body = FixtureMoveSerializer(data=request.data, context=context)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        fixture = fixture_move(
            fixture=fixture,
            date=data["date"],
            venue=data.get("venue"),
            table=data.get("table"),
            note=data.get("note", ""),
            on_no_play_night=data.get("on_no_play_night", False),
            user=request.user,
        )
        return Response(FixtureSerializer(fixture, context=self.get_serializer_context()).data)

    @extend_schema(
        request=FixtureForfeitSerializer, responses={200: FixtureSerializer, 400: ERROR_BODY}
    )
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Record a forfeit or walkover: the winner scores the season's ``points_win``."""
        fixture = self.get_object()
        body = FixtureForfeitSerializer(data=request.data, context=self.get_serializer_context())
        body.is_valid(raise_exception=True)
        data = body.validated_data
        note = data["kind"].capitalize() + (f": {data['note']}" if data.get("note") else "")
        fixture = fixture_forfeit(
            fixture=fixture, winner=data["winner"], note=note, user=request.user
        )
        return Response(FixtureSerializer(fixture, context=self.get_serializer_context()).data)


# --- schedule configs ---------------------------------------------------------------------


class SkipDateSerializer(serializers.Serializer):
    date = serializers.DateField()
    reason = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")


class ScheduleConfigSerializer(ClubScopedSerializer):
    division = serializers.PrimaryKeyRelatedField(queryset=Division.objects.all())
    venues = serializers.PrimaryKeyRelatedField(
        many=True,
        queryset=Venue.objects.all(),
        required=False,
        help_text="Venues whose tables are used, in the order they fill.",
    )
    skip_dates = SkipDateSerializer(many=True, required=False)
    games_per_fixture = serializers.IntegerField(
        min_value=1, max_value=9, required=False, help_text="The division's games per fixture."
    )
    start_date = serializers.DateField(
        required=False, help_text="Default: the season's start date."
    )

    class Meta:
        model = ScheduleConfig
        fields = [
            "id",
            "division",
            "format",
            "cycles",
            "swiss_rounds",
            "games_per_fixture",
            "weekday",
            "start_date",
            "start_time",
            "venues",
            "skip_dates",
            "updated_at",
        ]
        read_only_fields = ["updated_at"]

    def to_representation(self, instance: ScheduleConfig) -> dict[str, Any]:
        return {
            "id": instance.pk,
            "division": instance.division_id,
            "format": instance.format,
            "cycles": instance.cycles,
            "swiss_rounds": instance.swiss_rounds,
            "games_per_fixture": instance.division.games_per_fixture,
            "weekday": instance.weekday,
            "start_date": instance.start_date.isoformat(),
            "start_time": instance.start_time.isoformat() if instance.start_time else None,
            "venues": [sv.venue_id for sv in instance.schedule_venues.order_by("position")],
            "skip_dates": [
                {"date": s.date.isoformat(), "reason": s.reason}
                for s in instance.skip_dates.order_by("date")
            ],
            "updated_at": instance.updated_at.isoformat().replace("+00:00", "Z"),
        }

    def validate_division(self, division: Division) -> Division:
        clash = ScheduleConfig.objects.filter(division=division)
        if self.instance is not None:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise Conflict(CONFIG_EXISTS, field="division")
        return division

    def _save(self, division: Division, data: dict[str, Any]) -> ScheduleConfig:
        current = self.instance
        defaults: dict[str, Any] = {}
        if current is not None:
            defaults = {
                "format": current.format,
                "cycles": current.cycles,
                "swiss_rounds": current.swiss_rounds,
                "weekday": current.weekday,
                "start_date": current.start_date,
                "start_time": current.start_time,
                "venues": current.ordered_venues(),
                "skip_dates": [(s.date, s.reason) for s in current.skip_dates.all()],
            }
        merged = {**defaults, **data}
        skip = merged.pop("skip_dates", [])
        merged["skip_dates"] = [
            s if isinstance(s, tuple) else (s["date"], s.get("reason", "")) for s in skip
        ]
        return schedule_config_save(division=division, **merged)

    def create(self, validated_data: dict[str, Any]) -> ScheduleConfig:
        division = validated_data.pop("division")
        return self._save(division, validated_data)

    def update(self, instance: ScheduleConfig, validated_data: dict[str, Any]) -> ScheduleConfig:
        validated_data.pop("division", None)
        return self._save(instance.division, validated_data)


class ScheduleConfigViewSet(ClubScopedModelViewSet):
    """How each division's schedule is made: format, league nights, venues, skipped dates."""

    serializer_class = ScheduleConfigSerializer
    queryset = ScheduleConfig.objects.none()
    filterset_fields = ["division", "format"]

    def queryset_for_club(self, club) -> QuerySet[ScheduleConfig]:
        return (
            club.schedule_configs.select_related("division")
            .prefetch_related("schedule_venues", "skip_dates")
            .order_by("id")
        )

    @extend_schema(
        request=ScheduleConfigSerializer,
        responses={201: ScheduleConfigSerializer, 400: ERROR_BODY},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().create(request, *args, **kwargs)


# --- schedule runs ------------------------------------------------------------------------


class ScheduleRunNoteSerializer(serializers.Serializer):
    """One note of a generation: what overflowed where, a bye, a warning."""

    kind = serializers.CharField(
        help_text="night_overflow, venue_overflow, past_end, more (and others to come)."
    )
    text = serializers.CharField(help_text="The note in plain words, as the page shows it.")
    round = serializers.IntegerField(required=False, help_text="The round it is about.")
    date = serializers.DateField(required=False, help_text="The night it is about.")
    venue = serializers.IntegerField(required=False, help_text="The venue's id.")
    count = serializers.IntegerField(required=False, help_text="How many fixtures.")
    full = serializers.CharField(required=False, help_text="Which tables were full.")


@extend_schema_field(ScheduleRunNoteSerializer(many=True))
class ScheduleRunNotesField(serializers.JSONField):
    """The notes as stored (extra keys kept), in English: without the template and values
    that let the pages show them in their reader's language."""

    def to_representation(self, value):
        return super().to_representation(
            [
                {k: v for k, v in note.items() if k not in ("template", "params")}
                if isinstance(note, dict)
                else note
                for note in value or []
            ]
        )


class ScheduleRunSerializer(serializers.ModelSerializer):
    notes = ScheduleRunNotesField(read_only=True)
    stalled = serializers.SerializerMethodField(
        help_text="Its worker stopped (no heartbeat): nothing was changed; retry it."
    )
    retryable = serializers.SerializerMethodField(help_text="Failed or stalled: POST retry/.")

    class Meta:
        model = ScheduleRun
        fields = [
            "id",
            "division",
            "state",
            "progress",
            "message",
            "notes",
            "fixtures_created",
            "fixtures_kept",
            "created_at",
            "started_at",
            "heartbeat_at",
            "finished_at",
            "stalled",
            "retryable",
        ]
        read_only_fields = fields

    def get_stalled(self, run: ScheduleRun) -> bool:
        return schedule_run_stalled(run=run)

    def get_retryable(self, run: ScheduleRun) -> bool:
        return run.state == ScheduleRun.State.FAILED or schedule_run_stalled(run=run)


class ScheduleRunCreateSerializer(ClubScopedSerializer):
    division = serializers.PrimaryKeyRelatedField(queryset=Division.objects.all())

    class Meta:
        model = ScheduleRun
        fields = ["division"]


class ScheduleRunViewSet(
    ClubScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Generating a division's schedule. POST queues a run (202 with its id); GET it to see
    its state (queued, running, done, failed) and progress. Rounds with results are kept."""

    serializer_class = ScheduleRunSerializer
    queryset = ScheduleRun.objects.none()
    filterset_fields = ["division", "state"]

    def get_queryset(self) -> QuerySet[ScheduleRun]:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return ScheduleRun.objects.filter(club=self.club).order_by("-created_at", "-id")

    def get_serializer_class(self):
        return ScheduleRunCreateSerializer if self.action == "create" else ScheduleRunSerializer

    def _queued(self, run: ScheduleRun) -> Response:
        run.refresh_from_db()
        return Response(ScheduleRunSerializer(run).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        request=ScheduleRunCreateSerializer,
        responses={202: ScheduleRunSerializer, 400: ERROR_BODY},
    )
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = ScheduleRunCreateSerializer(data=request.data, context=self.get_serializer_context())
        body.is_valid(raise_exception=True)
        with transaction.atomic():
            run = schedule_generate(division=body.validated_data["division"], user=request.user)
        return self._queued(run)

    @extend_schema(request=None, responses={202: ScheduleRunSerializer, 400: ERROR_BODY})
    @action(detail=True, methods=["post"])
    def retry(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Generate again after a failed (or stalled) run: a new run, 202."""
        run = self.get_object()
        with transaction.atomic():
            new = schedule_run_retry(run=run, user=request.user)
        return self._queued(new)


NO_SUCH_TEAM = "No such team in this club."


class CalendarLinkRenewSerializer(serializers.Serializer):
    renew = serializers.BooleanField(
        default=False, help_text="A new link in place of the old one, which stops working."
    )


class CalendarLinkSerializer(serializers.Serializer):
    url = serializers.URLField(
        allow_null=True,
        help_text="The team's .ics feed for the caller: a public club's needs no key; a "
        "private club's carries the member's own key (null until they ask for one).",
    )
    personal = serializers.BooleanField(help_text="The URL carries the caller's own key.")


class CalendarRevokedSerializer(serializers.Serializer):
    revoked = serializers.IntegerField(help_text="How many members' links were revoked.")


class TeamCalendarLinkViewSet(ClubScopedMixin, viewsets.GenericViewSet):
    """A team's calendar (.ics) link: read it, get or renew one's own (any member), or, as
    a club admin, revoke every member's link to the team (``feeds``)."""

    serializer_class = CalendarLinkSerializer
    queryset = Team.objects.none()  # the schema's type of ``team_id``; reads use _team()
    list_is_one_object = True  # GET answers the one link, not a page (core.schema)

    @property
    def write_need(self) -> str:  # type: ignore[override]
        return "manage" if getattr(self, "action", None) == "revoke" else "member"

    def _team(self) -> Team:
        team = Team.objects.filter(club=self.club, pk=self.kwargs["team_id"]).first()
        if team is None:
            raise NotFound(NO_SUCH_TEAM)
        return team

    def _link(self, team: Team) -> dict[str, Any]:
        path = reverse("scheduling:team-ics", args=[self.club.slug, team.pk])
        own = feeds.feed_key_of(access=self.club_access, team=team)
        if self.club.is_public:
            return {"url": self.request.build_absolute_uri(path), "personal": False}
        if own is None:
            return {"url": None, "personal": False}
        return {"url": self.request.build_absolute_uri(f"{path}?key={own.key}"), "personal": True}

    @extend_schema(responses={200: CalendarLinkSerializer})
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The caller's link to the team's feed (null in a private club until they get one)."""
        return Response(self._link(self._team()))

    @extend_schema(
        request=CalendarLinkRenewSerializer,
        responses={200: CalendarLinkSerializer, 400: ERROR_BODY},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Get one's own link to a private club's team feed, or a new one (``renew``)."""
        body = CalendarLinkRenewSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        team = self._team()
        feeds.feed_key_issue(access=self.club_access, team=team, renew=body.validated_data["renew"])
        return Response(self._link(team))

    @extend_schema(request=None, responses={200: CalendarRevokedSerializer})
    @action(detail=False, methods=["post"])
    def revoke(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Revoke every member's link to the team's feed (club admins)."""
        revoked = feeds.feed_keys_revoke(access=self.club_access, team=self._team())
        return Response({"revoked": revoked})


# Request bodies' examples in the schema, by component (``<Serializer name>Request``; the
# PATCH variant uses the same). ``core.schema.postprocess_request_examples`` applies them.
REQUEST_EXAMPLES = {
    "VenueRequest": {"name": "Club room", "tables": 6},
    "FixtureRequest": {
        "division": 1,
        "round_number": 1,
        "home": 1,
        "away": 2,
        "date": "2027-01-04",
        "venue": 1,
        "table": 1,
        "games_planned": 3,
    },
    "FixtureUpdateRequest": {
        "division": 1,
        "round_number": 2,
        "home": 1,
        "away": 2,
        "games_planned": 3,
    },
    "FixtureMoveRequest": {"date": "2027-01-11", "venue": 1, "table": 2, "note": "Snow"},
    "FixtureForfeitRequest": {"winner": 1, "kind": "walkover", "note": "No side raised"},
    "ScheduleConfigRequest": {
        "division": 1,
        "format": "round_robin",
        "cycles": 2,
        "games_per_fixture": 3,
        "weekday": 0,
        "start_date": "2027-01-04",
        "start_time": "19:30:00",
        "venues": [1],
        "skip_dates": [{"date": "2027-02-15", "reason": "Presidents' Day"}],
    },
    "ScheduleRunCreateRequest": {"division": 1},
    "CalendarLinkRenewRequest": {"renew": True},
}
