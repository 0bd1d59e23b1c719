"""Schemathesis against /api/schema/: generated requests to every operation of the API, one
at a time and then chained (the stateful phase: what one answer creates, the next request
uses, followed through the links schemathesis infers from the schema), with a scorer's
token and anonymously.

Requests address a real public club, so they reach the views, not only the 404 of an
unknown club. However odd the input, the API never answers 5xx, never a status its schema
does not list for the operation, and every response matches the schema (body and
content type).

A second pass puts hostile text (NUL bytes, escape and other control characters, line
breaks) into every generated string of the query and the body: never a 5xx either.
"""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.factories import ClubFactory, DivisionFactory, MembershipFactory, TeamFactory

#: Slow: ``make test FAST=1`` skips it locally; CI always runs it.
pytestmark = pytest.mark.fuzz

FUZZ_CLUB = "fuzz"
#: Examples per operation (bounded and derandomised: the same run every time).
EXAMPLES = {"scorer": 12, "anonymous": 4}
HOSTILE_EXAMPLES = 4
HOSTILE = ("\x00", "\x1b[2J", "\r\nBcc: all@example.org", "\x07\x7f")
#: The stateful phase: this many chains of at most STEPS requests.
CHAINS, STEPS = 15, 6
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    response_schema_conformance,
    content_type_conformance,
]


@pytest.fixture
def headers(db, request):
    from rest_framework.authtoken.models import Token

    from clabber_league.clubs.models import Role
    from clabber_league.games import services

    club = ClubFactory(slug=FUZZ_CLUB, is_public=True)
    membership = MembershipFactory(club=club, role=Role.SCORER)
    division = DivisionFactory(season__club=club, club=club)
    a, b = TeamFactory(division=division), TeamFactory(division=division)
    seats = [
        a.members.all()[0].player,
        b.members.all()[0].player,
        a.members.all()[1].player,
        b.members.all()[1].player,
    ]
    game = services.game_start(club=club, division=division, sides={"A": a, "B": b}, seats=seats)
    services.deal_record(
        game_id=game.pk,
        data={"maker": "A", "trump": "clubs", "points": {"A": 100, "B": 52}, "last_trick": "A"},
    )
    if request.param == "anonymous":
        return {}
    return {"Authorization": f"Token {Token.objects.create(user=membership.user).key}"}


@pytest.fixture
def schema():
    # As Django's test client does: the test's database connection must outlive each request.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.mark.parametrize("headers", ["scorer", "anonymous"], indirect=True)
def test_every_operation_answers_as_documented(schema, headers):
    _walk(schema, headers, examples=EXAMPLES["scorer" if headers else "anonymous"])


@pytest.mark.parametrize("headers", ["scorer"], indirect=True)
def test_hostile_text_in_any_string_never_fails_the_api(schema, headers):
    _walk(schema, headers, examples=HOSTILE_EXAMPLES, hostile=True)


def _poison(value, index=0):
    """Every string of ``value`` with one of the hostile snippets put in it."""
    if isinstance(value, str):
        return value + HOSTILE[index % len(HOSTILE)]
    if isinstance(value, dict):
        return {k: _poison(v, index + i) for i, (k, v) in enumerate(value.items())}
    if isinstance(value, list):
        return [_poison(v, index + i) for i, v in enumerate(value)]
    return value


def _walk(schema, headers: dict, *, examples: int, hostile: bool = False) -> None:
    # The operations are walked here rather than with schemathesis' pytest plugin, which
    # does not run under this pytest; each gets a bounded, derandomised hypothesis run.
    checks = [not_a_server_error] if hostile else CHECKS
    failures = []
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1

        @given(case=operation.as_strategy())
        @settings(
            max_examples=examples,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def run(case):
            if "club_slug" in (case.path_parameters or {}):
                case.path_parameters["club_slug"] = FUZZ_CLUB
            if hostile:
                case.query = _poison(case.query or {}) or {"q": HOSTILE[0]}
                if isinstance(case.body, (dict, list, str)):
                    case.body = _poison(case.body)
            response = case.call(headers=headers)
            case.validate_response(response, checks=checks)

        try:
            run()
        except (Exception, BaseExceptionGroup) as exc:  # collect every operation's failure
            failures.append(f"{operation.label}: {exc}"[:2000])
    assert operations > 40
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("headers", ["scorer", "anonymous"], indirect=True)
def test_chained_requests_answer_as_documented(schema, headers):
    workflow = schema.as_state_machine()
    assert len(workflow.bundles) > 20  # the links inferred between operations

    class Chains(workflow):  # type: ignore[misc, valid-type]
        def before_call(self, case):
            if "club_slug" in (case.path_parameters or {}):
                case.path_parameters["club_slug"] = FUZZ_CLUB

        def get_call_kwargs(self, case):
            return {"headers": headers}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=CHECKS)

    Chains.run(
        settings=settings(
            max_examples=CHAINS,
            stateful_step_count=STEPS,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
    )
