"""``manage.py seed_demo``: a demo club to look around in. Safe to run twice.

Creates the Evansville Clabber Club (public), an admin and a scorer login, the
Winter 2026 season with a Monday Night division of eight partnerships, finished
games played card by card through the same services a scorer uses, and one game
still in progress; and a club night of 13 players (a table of three each round) with two
of its three rounds played. A second run changes nothing.

It never takes over or resets an account that already exists: the ``admin`` and
``scorer`` logins get the demo password only when this command creates them, so a
changed password survives ``make run`` restarting (and nobody is logged out), and a
real account that happens to be called ``admin`` is left as it is and not made a
member of the demo club.
"""

import datetime
import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from clabber_league.clubs.access import access_for
from clabber_league.clubs.models import Club, Membership, Player, Role
from clabber_league.games import services as game_services
from clabber_league.games.models import Game
from clabber_league.leagues.models import Division, Season, Team, TeamMember
from clabber_league.rules import get_ruleset
from clabber_league.rules.simulate import simulate_deal

DEMO_PASSWORD = "clabber-demo"
PLAYERS = [
    "Ada Kessler",
    "Bud Hartig",
    "Carl Wempe",
    "Dot Schnur",
    "Earl Mattingly",
    "Fern Goebel",
    "Gus Reitz",
    "Hazel Stoll",
    "Ike Rexing",
    "June Folz",
    "Kurt Ubelhor",
    "Lena Heerdink",
    "Mo Fehrenbacher",
    "Nell Seib",
    "Otto Kuebler",
    "Pearl Happe",
]
TEAMS = [
    "Jack & Nine",
    "Mules",
    "Turkey Tracks",
    "Dad 'n' Bell",
    "Hicksters",
    "Fifty Club",
    "West Side",
    "Franklin Street",
]
NIGHT_NAME = "Tuesday club night"
PAIRINGS = [(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7)]


class Command(BaseCommand):
    help = "Load a demo club with a season, eight partnerships and finished games (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=500, help="random seed for the deals")
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="where the site is served, for the links printed at the end",
        )

    def handle(self, *args, **options):
        rng = random.Random(options["seed"])
        base = options["base_url"].rstrip("/")
        with transaction.atomic():
            club, admin, scorer = self._club_and_logins()
            division, teams = self._league(club)
        created = self._games(club, division, teams, admin, scorer, rng)
        self._club_night(club, admin, scorer, rng)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo club ready: {club.name} ({Game.objects.filter(club=club).count()} games, "
                f"{created} new)."
            )
        )
        self.stdout.write(f"Log in at {base}/accounts/login/ with")
        for username, what, created in self.logins:
            password = DEMO_PASSWORD if created else "(its own password: an existing account)"
            self.stdout.write(f"  {what}: {username} / {password}")
        self.stdout.write(f"The club's page: {base}/clubs/{club.slug}/")

    def _club_and_logins(self):
        User = get_user_model()
        club, _ = Club.objects.get_or_create(
            slug="evansville",
            defaults={
                "name": "Evansville Clabber Club",
                "city": "Evansville, Indiana",
                "is_public": True,
            },
        )
        self.logins: list[tuple[str, str, bool]] = []
        admin, made_admin = self._login(User, "admin", "club admin (and Django admin)", True)
        scorer, made_scorer = self._login(User, "scorer", "scorer", False)
        if made_admin:
            Membership.objects.create(club=club, user=admin, role=Role.ADMIN)
        if made_scorer:
            Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
        # An account that is not the demo's records and confirms nothing in the demo club.
        roles = dict(club.memberships.values_list("user_id", "role"))
        admin = admin if roles.get(admin.pk) == Role.ADMIN else None
        scorer = scorer if roles.get(scorer.pk) in (Role.SCORER, Role.ADMIN) else None
        return club, admin, scorer

    def _login(self, User, username: str, what: str, superuser: bool):
        """The demo login ``username``: created with the demo password if missing, left
        exactly as it is (password, flags, clubs) if it already exists."""
        user, created = User.objects.get_or_create(
            username=username, defaults={"email": f"{username}@localhost"}
        )
        if created:
            user.is_staff = user.is_superuser = superuser
            user.set_password(DEMO_PASSWORD)
            user.save()
        self.logins.append((username, what, created))
        return user, created

    def _league(self, club):
        season, _ = Season.objects.get_or_create(
            club=club,
            slug="winter-2026",
            defaults={"name": "Winter 2026", "start_date": datetime.date(2026, 9, 7)},
        )
        division, _ = Division.objects.get_or_create(
            club=club,
            season=season,
            slug="monday-night",
            defaults={"name": "Monday Night", "ruleset": "clabber"},
        )
        players = [Player.objects.get_or_create(club=club, name=name)[0] for name in PLAYERS]
        teams = []
        for index, name in enumerate(TEAMS):
            team, created = Team.objects.get_or_create(club=club, division=division, name=name)
            if created:
                for position, player in enumerate(players[2 * index : 2 * index + 2]):
                    TeamMember.objects.create(team=team, player=player, position=position)
            teams.append(team)
        return division, teams

    def _games(self, club, division, teams, admin, scorer, rng) -> int:
        if Game.objects.filter(division=division).exists():
            return 0
        ruleset = get_ruleset(division.rules_spec())
        created = 0
        for number, (a, b) in enumerate([*PAIRINGS, (2, 5)]):
            side_a, side_b = teams[a], teams[b]
            a_players = [m.player for m in side_a.members.order_by("position")]
            b_players = [m.player for m in side_b.members.order_by("position")]
            seats = [a_players[0], b_players[0], a_players[1], b_players[1]]
            game = game_services.game_start(
                club=club,
                division=division,
                sides={"A": side_a, "B": side_b},
                seats=seats,
                first_dealer=number % 4,
                user=scorer,
                played_on=datetime.date(2026, 9, 7) + datetime.timedelta(weeks=number // 4),
            )
            created += 1
            in_progress = number == len(PAIRINGS)
            dealer = game.first_dealer
            for _ in range(4 if in_progress else 200):
                deal = simulate_deal(ruleset, rng, dealer=dealer)
                maker_seat = None
                if "maker" in deal:
                    maker_seat = rng.choice(
                        [s for s in range(4) if ruleset.sides[s % 2] == deal["maker"]]
                    )
                game_services.deal_record(
                    game_id=game.pk, data=deal, maker_seat=maker_seat, user=scorer
                )
                game.refresh_from_db()
                if game.status != Game.Status.IN_PROGRESS:
                    break
                dealer = game_services.next_dealer_seat(game=game)
            if number < 4 and game.status == Game.Status.FINISHED and admin is not None:
                game_services.game_confirm(
                    game=game, user=admin, access=access_for(club=game.club, user=admin)
                )
        return created

    def _club_night(self, club, admin, scorer, rng) -> None:
        """A club night (issue 15): 13 of the players checked in, two rounds drawn and
        played through the same services the night's page uses, the third still to draw."""
        from clabber_league.events.models import Event
        from clabber_league.events.services import checkin, rounds
        from clabber_league.events.services.events import event_create

        if Event.objects.filter(club=club, name=NIGHT_NAME).exists():
            return
        event = event_create(
            club=club,
            user=admin,
            name=NIGHT_NAME,
            date=datetime.date(2026, 9, 8),
            rules="clabber",
            rounds=3,
            # Rounds of six deals (as klaverjas clubs play a fixed number): a quick seed.
            round_kind=Event.RoundKind.DEALS,
            round_deals=6,
            entry_fee_cents=300,
            prize_rule=Event.PrizeRule.PER_FOUR,
            seed="260908",
        )
        for name in PLAYERS[:13]:
            checkin.entry_check_in(event=event, player=Player.objects.get(club=club, name=name))
        access = access_for(club=club, user=admin) if admin is not None else None
        for _ in range(2):
            drawn = rounds.round_draw(event=event, user=admin, access=access)
            for table in drawn.tables.select_related("game"):
                self._play_out(table.game, scorer, rng)
        rounds.round_finish(round_=drawn, user=admin, access=access)

    def _play_out(self, game, scorer, rng) -> None:
        """Deals simulated card by card until the game ends."""
        ruleset = get_ruleset(game.rules)
        sides = len(ruleset.sides)
        dealer = game.first_dealer
        while game.status == Game.Status.IN_PROGRESS:
            deal = simulate_deal(ruleset, rng, dealer=dealer)
            maker_seat = None
            if "maker" in deal:
                maker_seat = rng.choice(
                    [s for s in range(ruleset.players) if ruleset.sides[s % sides] == deal["maker"]]
                )
            game_services.deal_record(
                game_id=game.pk, data=deal, maker_seat=maker_seat, user=scorer
            )
            game.refresh_from_db()
            dealer = game_services.next_dealer_seat(game=game)
