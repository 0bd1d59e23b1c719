"""The results file over the API (docs/exchange.md).

A club's admins read its finished competitions as results files:
``GET /api/clubs/<club>/exchange/`` lists them; ``.../exchange/<fixtures|divisions|nights|
cups>/<id>/`` is the file (JSON), ``.../xml/`` its XML form.

A federation takes files: ``POST /api/federations/<federation>/results/`` with the file as
the body, by one of its officers or by a member club's admin (a token of the admin scope),
for their own club; 201 for a new file, 200 with the same answer for one already imported.
Its officers read the files (``GET .../results/``, ``.../results/<id>/``) and the periods,
and close a period (``POST .../periods/<id>/close/``). Anyone else reading a federation's
files gets 404, as for a club they may not read.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from clabber_league.calculator.api import ERROR_BODY
from clabber_league.clubs.api_base import ClubScopedMixin
from clabber_league.clubs.tokens import scope_of
from clabber_league.core.pagination import PagePagination
from clabber_league.core.rows import MAX_ID
from clabber_league.federation.models import Federation
from clabber_league.members.api import ManageReadsToo

from . import building, reading, selectors, services
from .models import ImportedResult, Period, ResultFile

NO_SUCH_FEDERATION = "No such federation."
NO_SUCH_EVENT = "No such finished competition in this club."
#: The URL word of each kind of event.
PLURAL = {"fixture": "fixtures", "division": "divisions", "night": "nights", "cup": "cups"}
#: The XML form's media type: ``text/xml``, not ``application/xml`` (RFC 7303 makes them
#: the same), so that openapi-python-client, which reads ``text/*`` and not
#: ``application/xml``, keeps the operation in a generated client.
XML_TYPE = "text/xml; charset=utf-8"
EVENT_ID = OpenApiParameter(
    "id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The competition's id."
)


# --- a club's exports -------------------------------------------------------------------------


class ExportableSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[(k, k) for k in building.KINDS])
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField(allow_null=True)
    url = serializers.CharField(help_text="The results file (JSON).")
    xml_url = serializers.CharField(help_text="Its XML form.")


def exportable_rows(club: Any) -> list[dict[str, Any]]:
    rows = []
    for kind, items in reading.exportable(club=club).items():
        for item in items:
            if kind == "fixture":
                name, date = f"{item.home.name} v {item.away.name}", item.date
            elif kind == "division":
                name, date = f"{item.season.name} · {item.name}", item.season.end_date
            elif kind == "night":
                name, date = item.name, item.date
            else:
                name, date = item.name, None
            base = f"/api/clubs/{club.slug}/exchange/{PLURAL[kind]}/{item.pk}/"
            rows.append(
                {
                    "kind": kind,
                    "id": item.pk,
                    "name": name,
                    "date": date,
                    "url": base,
                    "xml_url": base + "xml/",
                }
            )
    return rows


class ExportListViewSet(ClubScopedMixin, viewsets.GenericViewSet):
    """The club's finished competitions, each with its results file's URLs (club admins)."""

    permission_classes = [ManageReadsToo]
    serializer_class = ExportableSerializer
    pagination_class = PagePagination
    filter_backends: list = []  # a list of competitions of several kinds, not a queryset
    queryset = ResultFile.objects.none()  # for the schema only: the rows are built per club

    @extend_schema(operation_id="exchange_exportable_list", summary="List exportable competitions")
    def list(self, request: Request, club_slug: str) -> Response:
        page = self.paginate_queryset(exportable_rows(self.club))
        return self.get_paginated_response(ExportableSerializer(page, many=True).data)


class ExportViewSet(ClubScopedMixin, viewsets.ViewSet):
    """One finished competition's results file (club admins)."""

    permission_classes = [ManageReadsToo]
    kind = "fixture"

    def _payload(self, pk: str) -> dict[str, Any]:
        if not str(pk).isdigit():
            raise NotFound(NO_SUCH_EVENT)
        try:
            return reading.export_event(club=self.club, kind=self.kind, pk=int(pk))
        except (
            reading.Fixture.DoesNotExist,
            reading.Division.DoesNotExist,
            reading.Event.DoesNotExist,
            reading.Cup.DoesNotExist,
        ) as exc:
            raise NotFound(NO_SUCH_EVENT) from exc

    @extend_schema(
        summary="Get a results file",
        parameters=[EVENT_ID],
        responses={200: OpenApiTypes.OBJECT, 409: ERROR_BODY},
        description="The results file, version 1 (docs/exchange.md, "
        "docs/schemas/results-v1.schema.json). 409: the competition is not finished.",
    )
    def retrieve(self, request: Request, club_slug: str, pk: str) -> Response:
        payload = self._payload(pk)
        response = Response(payload)
        response["Content-Disposition"] = f'attachment; filename="{_filename(payload)}.json"'
        return response

    @extend_schema(
        summary="Get a results file's XML form",
        parameters=[EVENT_ID],
        responses={(200, "text/xml"): OpenApiTypes.STR, 409: ERROR_BODY},
        description="The same file as XML, served as ``text/xml`` (RFC 7303: the same as "
        "``application/xml``), a text type that generated clients read as a string.",
    )
    @action(detail=True, methods=["get"])
    def xml(self, request: Request, club_slug: str, pk: str) -> HttpResponse:
        payload = self._payload(pk)
        response = HttpResponse(building.to_xml(payload), content_type=XML_TYPE)
        response["Content-Disposition"] = f'attachment; filename="{_filename(payload)}.xml"'
        return response


def _filename(payload: dict[str, Any]) -> str:
    return f"{payload['sender']['club']['slug']}-{payload['event']['key']}"


EXPORT_VIEWSETS = {
    kind: type(f"Export{kind.title()}ViewSet", (ExportViewSet,), {"kind": kind})
    for kind in building.KINDS
}


# --- a federation's imports -------------------------------------------------------------------


class ResultFileSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    flags = serializers.ListField(child=serializers.DictField(), read_only=True)
    replaced_by = serializers.PrimaryKeyRelatedField(read_only=True)

    class Meta:
        model = ResultFile
        fields = [
            "id",
            "club",
            "event_key",
            "kind",
            "name",
            "date_from",
            "date_to",
            "status",
            "sha256",
            "version",
            "generated_at",
            "sender_site",
            "flags",
            "replaced_by",
            "via",
            "created_at",
        ]
        read_only_fields = fields


class ImportedResultSerializer(serializers.ModelSerializer):
    federation_player = serializers.PrimaryKeyRelatedField(read_only=True)

    class Meta:
        model = ImportedResult
        fields = [
            "player_ref",
            "player_name",
            "number",
            "federation_player",
            "flag",
            "side",
            "place",
            "places",
            "score",
            "score_share",
            "games",
        ]
        read_only_fields = fields


class ResultFileDetailSerializer(ResultFileSerializer):
    results = ImportedResultSerializer(many=True, read_only=True)

    class Meta(ResultFileSerializer.Meta):
        fields = [*ResultFileSerializer.Meta.fields, "results"]
        read_only_fields = fields


class PeriodSerializer(serializers.ModelSerializer):
    class Meta:
        model = Period
        fields = ["id", "start", "end", "closed_at", "created_at"]
        read_only_fields = ["closed_at", "created_at"]


class FederationScopedMixin:
    """The federation of the URL; its files and periods are its officers' to read."""

    permission_classes = [IsAuthenticated]
    federation: Federation

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        pk = kwargs.get("pk")
        if pk is not None and (not str(pk).isdigit() or int(pk) > MAX_ID):
            raise NotFound("Not found.")  # an id past any database's integer: not an overflow
        try:
            self.federation = selectors.federation_get(slug=kwargs.get("federation_slug", ""))
        except Federation.DoesNotExist as exc:
            raise NotFound(NO_SUCH_FEDERATION) from exc
        self.officer = selectors.is_officer(federation=self.federation, user=request.user)

    def officer_only(self) -> None:
        if not self.officer:
            raise NotFound(NO_SUCH_FEDERATION)


UPLOAD_EXAMPLE = OpenApiExample(
    "A club night's file",
    request_only=True,
    value={
        "format": "clabber-results",
        "version": 1,
        "generated_at": "2026-12-01T23:10:00Z",
        "generator": "clabber-league 0.1.0",
        "sender": {
            "site": "https://club.example.org",
            "club": {
                "slug": "de-klaver",
                "name": "De Klaver",
                "federations": [{"slug": "nku", "name": "NKU"}],
            },
        },
        "event": {
            "key": "night-12",
            "kind": "night",
            "name": "Tuesday night",
            "date_from": "2026-12-01",
            "date_to": "2026-12-01",
            "ranking": "points",
            "rules": {"base": "clabber", "name": None, "options": {}},
            "season": None,
            "division": None,
        },
        "players": [
            {"id": "p1", "name": "Ann", "numbers": [{"federation": "nku", "number": "NKU-1"}]}
        ],
        "sides": [{"id": "p1", "name": "Ann", "players": ["p1"]}],
        "placings": [{"side": "p1", "place": 1, "score": 1212}],
        "games": [],
    },
)


class ResultFileViewSet(
    FederationScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    queryset = ResultFile.objects.none()
    serializer_class = ResultFileSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ResultFile.objects.none()
        self.officer_only()
        queryset = selectors.result_file_list(federation=self.federation)
        if self.action == "retrieve":
            return queryset.prefetch_related("results")
        return queryset

    def get_serializer_class(self):
        return ResultFileDetailSerializer if self.action == "retrieve" else ResultFileSerializer

    @extend_schema(
        summary="Import a results file",
        request=OpenApiTypes.OBJECT,
        examples=[UPLOAD_EXAMPLE],
        responses={
            201: ResultFileSerializer,
            200: ResultFileSerializer,
            400: ERROR_BODY,
            409: ERROR_BODY,
        },
        description="The file (docs/exchange.md) as the body. 201: imported; 200: this very "
        "file was imported before (nothing changed). 400: every problem of the file, one "
        "entry each (field path and message), nothing imported; 403: not this federation's "
        "officer nor an admin of the file's club; 409: the event's period is closed, or a "
        "newer file for this event is already imported.",
    )
    def create(self, request: Request, federation_slug: str) -> Response:
        result_file, created = services.result_file_import(
            federation=self.federation,
            content=request.data,
            user=request.user,
            via=ResultFile.Via.API,
            scope=scope_of(request),
        )
        headers = {}
        if created:
            headers["Location"] = reverse(
                "exchange-result-file-detail", args=[federation_slug, result_file.pk]
            )
        return Response(
            ResultFileSerializer(result_file).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
            headers=headers,
        )


class PeriodViewSet(
    FederationScopedMixin, mixins.ListModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet
):
    queryset = Period.objects.none()
    serializer_class = PeriodSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Period.objects.none()
        self.officer_only()
        return selectors.period_list(federation=self.federation)

    @extend_schema(
        summary="Open a period",
        examples=[
            OpenApiExample(
                "December", request_only=True, value={"start": "2026-12-01", "end": "2026-12-31"}
            )
        ],
        responses={201: PeriodSerializer, 400: ERROR_BODY, 409: ERROR_BODY},
    )
    def create(self, request: Request, federation_slug: str) -> Response:
        self.officer_only()
        serializer = PeriodSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        period = services.period_create(
            federation=self.federation,
            start=serializer.validated_data["start"],
            end=serializer.validated_data["end"],
        )
        return Response(PeriodSerializer(period).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Close a period: its results become final",
        request=None,
        responses={200: PeriodSerializer, 409: ERROR_BODY},
    )
    @action(detail=True, methods=["post"])
    def close(self, request: Request, federation_slug: str, pk: str) -> Response:
        self.officer_only()
        try:
            period = selectors.period_get(federation=self.federation, pk=pk)
        except (Period.DoesNotExist, ValueError) as exc:
            raise NotFound("No such period.") from exc
        services.period_close(period=period, user=request.user)
        period.refresh_from_db()
        return Response(PeriodSerializer(period).data)
