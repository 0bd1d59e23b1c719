"""Schemathesis over the whole API, longer than the CI test (tests/api/test_fuzz.py), and
counted: how many generated requests ended in each kind of finding.

Every operation gets ``--examples`` schema-valid requests (positive) and as many
schema-violating ones (negative), with a scorer's token and anonymously, addressed to a
real public club (as the test does). Each answer goes through every check on its own, and
the script prints, per check, the number of requests that failed it:

- ``not_a_server_error``, ``status_code_conformance``, ``content_type_conformance``,
  ``response_schema_conformance``, ``response_headers_conformance``: must be 0;
- ``positive_data_acceptance`` ("valid request rejected": a request the schema allows was
  answered 400/413/415/422) and ``negative_data_rejection`` ("invalid request accepted": a
  request the schema forbids was answered 2xx): each a gap between the schema and the
  server, the figures issue 32 asks for before and after.

``--show N`` prints N findings of each kind (operation, status, request) to read.

    .venv/bin/python bench/api_fuzz.py [--examples 25] [--show 3] [--only games]
"""

from __future__ import annotations

import argparse
import collections
import json
import logging
import time

import _django

DB_NAME = "clabber_league_bench_api_fuzz"
_django.setup(DB_NAME)

import schemathesis  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.generation import GenerationMode  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CLUB = "fuzz"
CHECKS = {
    "not_a_server_error": not_a_server_error,
    "status_code_conformance": status_code_conformance,
    "content_type_conformance": content_type_conformance,
    "response_schema_conformance": response_schema_conformance,
    "response_headers_conformance": response_headers_conformance,
    "positive_data_acceptance": positive_data_acceptance,
    "negative_data_rejection": negative_data_rejection,
}
PLAIN = {
    "positive_data_acceptance": "valid request rejected",
    "negative_data_rejection": "invalid request accepted",
}


def _club() -> dict[str, str]:
    """The public club the requests address, with a game of one deal; a scorer's header."""
    from rest_framework.authtoken.models import Token

    from clabber_league.clubs.models import Role
    from clabber_league.games import services
    from tests.factories import ClubFactory, DivisionFactory, MembershipFactory, TeamFactory

    club = ClubFactory(slug=CLUB, is_public=True)
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
        game=game,
        data={"maker": "A", "trump": "clubs", "points": {"A": 100, "B": 52}, "last_trick": "A"},
    )
    return {"Authorization": f"Token {Token.objects.create(user=membership.user).key}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=25, help="per operation, mode and caller")
    parser.add_argument("--show", type=int, default=0, help="findings of each kind to print")
    parser.add_argument("--only", default="", help="operations whose path contains this")
    args = parser.parse_args()

    logging.disable(logging.WARNING)  # the access log: one line per request
    callers = {"scorer": _club(), "anonymous": {}}
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
    counts: collections.Counter[str] = collections.Counter()
    findings: dict[str, list[str]] = collections.defaultdict(list)
    requests = 0
    started = time.perf_counter()
    for result in schema.get_all_operations():
        operation = result.ok()
        if args.only not in operation.path:
            continue
        for caller, headers in callers.items():
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                requests += _fuzz(operation, mode, caller, headers, args.examples, counts, findings)
    seconds = time.perf_counter() - started
    print(
        f"{requests} requests in {seconds:.0f} s ({args.examples} examples per operation, "
        "mode and caller)"
    )
    for name in CHECKS:
        label = f" ({PLAIN[name]})" if name in PLAIN else ""
        print(f"{name}{label}: {counts[name]}")
        kinds = collections.Counter(line.split(": query=")[0] for line in findings[name])
        for kind, count in kinds.most_common(8):
            print(f"    {count:5d}  {kind}")
        for line in findings[name][: args.show]:
            print(f"    {line}")


def _negated(case, location: str) -> bool:
    """Whether schemathesis made this part of the request break the schema (then it is
    left as generated: addressing the real club would make the request valid again)."""
    meta = getattr(case, "meta", None)
    for where, info in (getattr(meta, "components", None) or {}).items():
        if str(getattr(where, "value", where)) == location and info.mode.is_negative:
            return True
    return False


def _fuzz(operation, mode, caller, headers, examples, counts, findings) -> int:
    """One operation, mode and caller: the requests made; each check's failures counted."""
    made = 0

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case):
        nonlocal made
        if "club_slug" in (case.path_parameters or {}) and not _negated(case, "path"):
            case.path_parameters["club_slug"] = CLUB
        response = case.call(headers=headers)
        made += 1
        for name, check in CHECKS.items():
            try:
                case.validate_response(response, checks=[check])
            except BaseException as exc:  # a finding, counted
                if isinstance(exc, KeyboardInterrupt):
                    raise
                counts[name] += 1
                body = case.body if isinstance(case.body, (dict, list, str, int)) else "-"
                findings[name].append(
                    f"{case.method} {case.formatted_path} ({caller}) -> "
                    f"{response.status_code}: query={case.query} "
                    f"body={json.dumps(body, default=str)[:200]} "
                    f"answer={response.text[:300]}"
                )

    run()
    return made


if __name__ == "__main__":
    main()
