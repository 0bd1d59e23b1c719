"""The REST API's routes. Club data lives under ``/api/clubs/<club_slug>/``."""

from rest_framework.routers import DefaultRouter

from clabber_league.clubs import api as clubs_api
from clabber_league.cups import api as cups_api
from clabber_league.events import api as events_api
from clabber_league.federation import api as federation_api
from clabber_league.games import api as games_api
from clabber_league.leagues import api as leagues_api
from clabber_league.members import api as members_api
from clabber_league.scheduling import api as scheduling_api
from clabber_league.standings import api as standings_api
from clabber_league.webhooks import api as webhooks_api

CLUB = r"clubs/(?P<club_slug>[-a-zA-Z0-9_]+)"
GAME = CLUB + r"/games/(?P<game_id>[0-9]+)"
EVENT = CLUB + r"/events/(?P<event_id>[0-9]+)"
FEDERATION = r"federations/(?P<federation_slug>[-a-zA-Z0-9_]+)"

router = DefaultRouter(trailing_slash=True)
# No ".json"/".csv" suffix URLs: a CSV download is an operation of its own (".../deals.csv/"),
# which a suffix pattern of ".../deals/" would otherwise shadow.
router.include_format_suffixes = False
router.register(r"clubs", clubs_api.ClubViewSet, basename="club")
# A URL is resolved by trying the routes in this order, each a regular expression: a game's
# deals (a table records one every minute or two) and the game's own routes come first, so
# that a deal is not tried against forty routes before its own. No two routes match the
# same URL, so the order changes nothing else.
router.register(GAME + "/deals", games_api.DealViewSet, basename="deal")
router.register(CLUB + "/games", games_api.GameViewSet, basename="game")
router.register(GAME + "/history", games_api.RevisionViewSet, basename="game-history")
router.register(CLUB + "/members", clubs_api.MembershipViewSet, basename="member")
router.register(CLUB + "/players", clubs_api.PlayerViewSet, basename="player")
router.register(CLUB + "/house-rules", leagues_api.HouseRulesViewSet, basename="house-rules")
router.register(CLUB + "/seasons", leagues_api.SeasonViewSet, basename="season")
router.register(CLUB + "/divisions", leagues_api.DivisionViewSet, basename="division")
router.register(CLUB + "/teams", leagues_api.TeamViewSet, basename="team")
router.register(
    CLUB + r"/teams/(?P<team_id>[0-9]+)/calendar-link",
    scheduling_api.TeamCalendarLinkViewSet,
    basename="team-calendar-link",
)
router.register(CLUB + "/venues", scheduling_api.VenueViewSet, basename="venue")
router.register(CLUB + "/fixtures", scheduling_api.FixtureViewSet, basename="fixture")
router.register(
    CLUB + "/schedule-configs", scheduling_api.ScheduleConfigViewSet, basename="schedule-config"
)
router.register(CLUB + "/schedule-runs", scheduling_api.ScheduleRunViewSet, basename="schedule-run")
router.register(CLUB + "/standings", standings_api.StandingsViewSet, basename="standings")
router.register(CLUB + "/leaderboards", standings_api.LeaderboardViewSet, basename="leaderboard")
router.register(CLUB + "/ratings", standings_api.RatingViewSet, basename="rating")
router.register(CLUB + "/ratings.csv", standings_api.RatingsCSVViewSet, basename="ratings-csv")
router.register(CLUB + "/invitations", members_api.InvitationViewSet, basename="invitation")
router.register(CLUB + "/disputes", members_api.DisputeViewSet, basename="dispute")
router.register(GAME + "/handover", members_api.HandoverViewSet, basename="handover")
router.register(CLUB + "/pins", members_api.PlayerPinViewSet, basename="player-pin")
router.register(CLUB + "/events", events_api.EventViewSet, basename="event")
router.register(EVENT + "/entries", events_api.EntryViewSet, basename="event-entry")
router.register(EVENT + "/rounds", events_api.RoundViewSet, basename="event-round")
router.register(EVENT + "/tables", events_api.TableViewSet, basename="event-table")
router.register(CLUB + "/event-series", events_api.SeriesViewSet, basename="event-series")
router.register(CLUB + "/cups", cups_api.CupViewSet, basename="cup")
router.register(CLUB + r"/cups/(?P<cup_id>[0-9]+)/ties", cups_api.TieViewSet, basename="cup-tie")
router.register(r"me/tokens", members_api.MyTokenViewSet, basename="my-token")
router.register(CLUB + "/webhooks", webhooks_api.SubscriptionViewSet, basename="webhook")
router.register(
    CLUB + r"/webhooks/(?P<webhook_id>[0-9]+)/deliveries",
    webhooks_api.DeliveryViewSet,
    basename="webhook-delivery",
)

# Federations above the clubs (issue 34, docs/federation.md).
router.register(r"federations", federation_api.FederationViewSet, basename="federation")
router.register(
    FEDERATION + "/clubs", federation_api.FederationClubViewSet, basename="federation-club"
)
router.register(
    FEDERATION + "/players", federation_api.FederationPlayerViewSet, basename="federation-player"
)
router.register(FEDERATION + "/links", federation_api.PlayerLinkViewSet, basename="federation-link")
router.register(
    FEDERATION + "/merges", federation_api.PlayerMergeViewSet, basename="federation-merge"
)

urlpatterns = router.urls
