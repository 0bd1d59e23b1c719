"""Members' pages: club admins' under ``/clubs/<club>/members/``, a member's own under
``/me/``, and the invitation link ``/join/<key>/``."""

from django.urls import path

from . import views

app_name = "members"

CLUB = "clubs/<slug:club_slug>/members/"

urlpatterns = [
    path("join/<str:key>/", views.join, name="join"),
    path("me/", views.my_games, name="my-games"),
    path("me/settings/", views.member_settings, name="settings"),
    path(CLUB + "invitations/", views.invitation_list, name="invitations"),
    path(CLUB + "invitations/<int:pk>/", views.invitation_detail, name="invitation"),
    path(CLUB + "invitations/<int:pk>/revoke/", views.invitation_revoke, name="invitation-revoke"),
    path(CLUB + "invitations/<int:pk>/claim/", views.invitation_claim, name="invitation-claim"),
    path(CLUB + "players/", views.player_logins, name="players"),
    path(CLUB + "security/", views.club_security, name="security"),
    path(CLUB + "players/<int:pk>/merge/", views.player_merge, name="player-merge"),
    path(CLUB + "disputes/", views.dispute_list, name="disputes"),
    path(CLUB + "disputes/<int:pk>/", views.dispute_detail, name="dispute"),
    path(CLUB + "games/<int:pk>/handover/", views.handover, name="handover"),
    path(CLUB + "games/<int:pk>/dispute/", views.handover_dispute, name="handover-dispute"),
    path(CLUB + "games/<int:pk>/pin/", views.table_pin, name="table-pin"),
    path(CLUB + "pins/", views.player_pins, name="pins"),
    path(CLUB + "pins/<int:pk>/", views.player_pin, name="pin"),
]
