"""A Python client generated from the live schema by openapi-python-client drives a whole
club's season, as an outside developer's program would, with nothing but the client.

Only what the API cannot do is set up directly: the club and the logins (made in the admin
or by sign-up on the site), the club admin's membership and each login's token.
"""

import csv
import importlib
import io
import pkgutil
import time

import pytest

from tests.api.generated import PACKAGE, generate, imported

#: Bounded polling of a schedule run: in-process it is done at once, a worker takes a moment.
POLLS, POLL_PAUSE = 100, 0.2


@pytest.fixture(scope="module")
def client_package(tmp_path_factory, django_db_setup, django_db_blocker):
    """Generate the client from the schema the site serves, into a temporary folder."""
    folder = tmp_path_factory.mktemp("generated")
    printed = generate(folder, django_db_blocker)
    assert "Warning" not in printed, printed
    with imported(folder) as package:
        yield package


def test_every_generated_module_imports(client_package):
    names = [
        m.name
        for m in pkgutil.walk_packages(client_package.__path__, prefix=PACKAGE + ".")
        if not m.ispkg
    ]
    for name in names:
        importlib.import_module(name)
    operations = [n for n in names if n.startswith(PACKAGE + ".api.")]
    assert len(operations) > 60


@pytest.mark.django_db(transaction=True)
def test_a_whole_club_season_through_the_generated_client(
    client_package, live_server, celery_worker_process
):
    from rest_framework.authtoken.models import Token

    from clabber_league.clubs.models import Player, Role
    from tests.factories import ClubFactory, MembershipFactory, UserFactory

    club = ClubFactory(slug="harmonie", is_public=False)
    secretary = MembershipFactory(club=club, role=Role.ADMIN).user
    scorer_login = UserFactory(username="tablescorer")
    other_side_login = UserFactory(username="otherside")
    tokens = {
        who: Token.objects.create(user=user).key
        for who, user in (
            ("secretary", secretary),
            ("scorer", scorer_login),
            ("other", other_side_login),
        )
    }

    def connect(who: str):
        return client_package.AuthenticatedClient(
            base_url=live_server.url,
            token=tokens[who],
            prefix="Token",
            raise_on_unexpected_status=True,
        )

    def op(tag: str, name: str):
        return importlib.import_module(f"{PACKAGE}.api.{tag}.{name}")

    m = importlib.import_module(f"{PACKAGE}.models")
    secretary_api, scorer_api, other_api = connect("secretary"), connect("scorer"), connect("other")
    slug = club.slug

    def ok(response, status: int):
        assert response.status_code == status, response.content
        return response.parsed

    # Members: the scorer and the other side's player join through the API.
    for username, role in (("tablescorer", m.RoleEnum.SCORER), ("otherside", m.RoleEnum.PLAYER)):
        ok(
            op("clubs", "clubs_members_create").sync_detailed(
                slug, client=secretary_api, body=m.MembershipRequest(username=username, role=role)
            ),
            201,
        )

    # The season, its venue, a division and two partnerships.
    season = ok(
        op("leagues", "clubs_seasons_create").sync_detailed(
            slug,
            client=secretary_api,
            body=m.SeasonRequest(
                name="Winter 2027", slug="winter-2027", start_date=_date("2027-01-04")
            ),
        ),
        201,
    )
    venue = ok(
        op("scheduling", "clubs_venues_create").sync_detailed(
            slug, client=secretary_api, body=m.VenueRequest(name="Club room", tables=4)
        ),
        201,
    )
    division = ok(
        op("leagues", "clubs_divisions_create").sync_detailed(
            slug,
            client=secretary_api,
            body=m.DivisionRequest(
                season=season.id, name="Premier", slug="premier", ruleset="clabber"
            ),
        ),
        201,
    )
    players = [
        ok(
            op("clubs", "clubs_players_create").sync_detailed(
                slug, client=secretary_api, body=m.PlayerRequest(name=name)
            ),
            201,
        )
        for name in ("Ann", "Bob", "Cy", "Di")
    ]
    teams = [
        ok(
            op("leagues", "clubs_teams_create").sync_detailed(
                slug,
                client=secretary_api,
                body=m.TeamRequest(division=division.id, name=name, players=[a.id, b.id]),
            ),
            201,
        )
        for name, (a, b) in (("Aces", players[:2]), ("Jacks", players[2:]))
    ]
    # The logins of the table: the scorer plays for the home side, "otherside" for the away.
    Player.objects.filter(pk=players[0].id).update(user=scorer_login)
    Player.objects.filter(pk=players[2].id).update(user=other_side_login)

    # The schedule: a config, then a run polled until it is done.
    ok(
        op("scheduling", "clubs_schedule_configs_create").sync_detailed(
            slug,
            client=secretary_api,
            body=m.ScheduleConfigRequest(
                division=division.id,
                format_=m.FormatEnum.ROUND_ROBIN,
                weekday=m.WeekdayEnum.MONDAY,
                venues=[venue.id],
            ),
        ),
        201,
    )
    queued = op("scheduling", "clubs_schedule_runs_create").sync_detailed(
        slug,
        client=secretary_api,
        body=m.ScheduleRunCreateRequest(division=division.id),
        idempotency_key="run-1",
    )
    run = ok(queued, 202)
    assert queued.headers["Location"].endswith(f"/schedule-runs/{run.id}/")
    for _ in range(POLLS):
        run = ok(
            op("scheduling", "clubs_schedule_runs_retrieve").sync_detailed(
                slug, run.id, client=secretary_api
            ),
            200,
        )
        if run.state in (m.StateEnum.DONE, m.StateEnum.FAILED):
            break
        time.sleep(POLL_PAUSE)
    assert run.state == m.StateEnum.DONE, run.message
    fixtures = ok(
        op("scheduling", "clubs_fixtures_list").sync_detailed(
            slug, client=secretary_api, division=division.id, round_number=1
        ),
        200,
    ).results
    assert len(fixtures) == 1
    fixture = fixtures[0]
    home, away = (teams[0], teams[1]) if fixture.home == teams[0].id else (teams[1], teams[0])

    # The game of that fixture, started with an Idempotency-Key and retried once.
    seats = [home.players[0], away.players[0], home.players[1], away.players[1]]
    start = m.GameCreateRequest(
        division=division.id,
        fixture=fixture.id,
        sides=m.GameCreateRequestSides.from_dict({"A": home.id, "B": away.id}),
        seats=seats,
    )
    create_game = op("games", "clubs_games_create")
    game = ok(
        create_game.sync_detailed(slug, client=scorer_api, body=start, idempotency_key="g1"), 201
    )
    again = ok(
        create_game.sync_detailed(slug, client=scorer_api, body=start, idempotency_key="g1"), 201
    )
    assert again.id == game.id

    # Deals until the target, each with its key; one retried after a "lost" answer.
    record = op("games", "clubs_games_deals_create")
    deals = []
    for number in range(1, 30):
        body = _deal(m, a=100 if number % 3 else 60)
        deal = ok(
            record.sync_detailed(
                slug, game.id, client=scorer_api, body=body, idempotency_key=f"d{number}"
            ),
            201,
        )
        if number == 2:
            retried = ok(
                record.sync_detailed(
                    slug, game.id, client=scorer_api, body=body, idempotency_key="d2"
                ),
                201,
            )
            assert retried.id == deal.id and retried.number == 2
        deals.append(deal)
        game = ok(
            op("games", "clubs_games_retrieve").sync_detailed(slug, game.id, client=scorer_api),
            200,
        )
        if game.status != m.GameStatusEnum.IN_PROGRESS:
            break
    assert game.status == m.GameStatusEnum.FINISHED
    assert [d.number for d in deals] == list(range(1, len(deals) + 1))

    # A correction of the first deal: the deals after it are re-scored.
    corrected = ok(
        op("games", "clubs_games_deals_update").sync_detailed(
            slug, game.id, deals[0].id, client=scorer_api, body=_deal(m, a=110)
        ),
        200,
    )
    assert corrected.score.a == 120 and corrected.score.b == 42
    history = ok(
        op("games", "clubs_games_history_list").sync_detailed(slug, game.id, client=scorer_api),
        200,
    ).results
    update = next(h for h in history if h.action == m.ActionEnum.UPDATE)
    assert update.before.score.a == 110 and update.after.score.a == 120

    # The other side confirms; the scorer's side could not.
    refused = op("games", "clubs_games_confirm_create").sync_detailed(
        slug, game.id, client=scorer_api
    )
    assert refused.status_code == 403, refused.content  # who may confirm: a permission
    assert refused.parsed.errors[0].field == "game"
    game = ok(
        op("games", "clubs_games_confirm_create").sync_detailed(slug, game.id, client=other_api),
        200,
    )
    assert game.status == m.GameStatusEnum.CONFIRMED

    # Standings as JSON and as CSV.
    table = ok(
        op("standings", "clubs_standings_retrieve").sync_detailed(
            slug, division.id, client=other_api
        ),
        200,
    )
    winner = "A" if game.scores.a > game.scores.b else "B"
    leader = home if winner == "A" else away
    assert table.rows[0].team_id == leader.id and table.rows[0].matches_won == 1
    download = op("standings", "clubs_standings_table_csv").sync_detailed(
        slug, division.id, client=other_api
    )
    assert download.status_code == 200
    assert download.headers["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(download.content.decode())))
    assert len(rows) == 3 and leader.name in rows[1]

    # Every deal of the division, two a page.
    pages, seen, page = 0, [], 1
    while page:
        listing = ok(
            op("standings", "clubs_standings_deals_list").sync_detailed(
                slug, division.id, client=other_api, page=page, page_size=2
            ),
            200,
        )
        seen += [d.id for d in listing.results]
        pages += 1
        page = page + 1 if listing.next_ else None
    assert seen == [d.id for d in deals] and listing.count == len(deals)
    assert pages == (len(deals) + 1) // 2


def _date(text: str):
    import datetime as dt

    return dt.date.fromisoformat(text)


def _deal(m, a: int):
    return m.DealInputRequest(
        maker="A",
        trump="hearts",
        points=m.PerSideInputRequest(a=a, b=152 - a),
        last_trick="A",
    )
