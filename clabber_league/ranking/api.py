"""The ranking's API: ``GET /api/federations/<slug>/ranking/``, the ranking best first,
paged (``?page``, ``?page_size``) as every list of the API; private players as on the
page (anonymised, or left out, as the federation chose; named to its officers)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from clabber_league.core.pagination import PagePagination

from . import selectors

PRIVATE_NAME = "Private player"


@extend_schema_serializer(component_name="NationalRankingLine")
class RankingLineSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField(help_text="'Private player' for a private profile.")
    number = serializers.CharField(help_text="Empty for a private profile.")
    rating = serializers.FloatField(help_text="mu - 3 sigma, the ranking's order.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    events = serializers.IntegerField()
    points = serializers.IntegerField(help_text="Placing points, all events.")
    last_event_on = serializers.DateField(allow_null=True)


class FederationRankingView(GenericAPIView):
    """A federation's national ranking, best first."""

    permission_classes = [AllowAny]
    pagination_class = PagePagination
    serializer_class = RankingLineSerializer

    @extend_schema(operation_id="federation_ranking_list", tags=["ranking"])
    def get(self, request: Request, federation_slug: str, *args: Any, **kwargs: Any) -> Response:
        reader = selectors.federation_reader(slug=federation_slug, user=request.user)
        rows = self.paginate_queryset(selectors.ranking_rows(reader))
        start = self.paginator.page.start_index()
        lines = [selectors.ranking_line(reader, start + i, row) for i, row in enumerate(rows)]
        data = [
            {
                "position": ln.position,
                # The API stays English, whatever the reader's language.
                "name": ln.name if ln.named else PRIVATE_NAME,
                "number": ln.number,
                "rating": round(ln.rating, 4),
                "mu": round(ln.mu, 4),
                "sigma": round(ln.sigma, 4),
                "events": ln.events,
                "points": ln.points,
                "last_event_on": ln.last_event_on,
            }
            for ln in lines
        ]
        return self.get_paginated_response(self.get_serializer(data, many=True).data)
