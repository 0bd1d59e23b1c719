"""A federation's pages (``/federations/...``) and the person's own (``/federations/me/``)."""

from django.urls import path

from . import views

app_name = "federation"

FED = "<slug:federation_slug>/"

urlpatterns = [
    path("", views.federation_list, name="list"),
    path("me/", views.my_data, name="me"),
    path("me/export.json", views.my_export, name="my-export"),
    path("me/records/<int:pk>/profile/", views.my_profile, name="my-profile"),
    path("me/records/<int:pk>/erase/", views.my_erase, name="my-erase"),
    path("me/links/<int:pk>/", views.my_link, name="my-link"),
    path(FED, views.federation_home, name="home"),
    path(FED + "players/<str:number>/", views.player_page, name="player"),
    path(FED + "invitations/<int:row_id>/", views.club_invitation, name="club-invitation"),
    # A member club's page in the federation (not a club-scoped URL: the federation's).
    path(FED + "clubs/<slug:member_slug>/links/", views.club_links, name="club-links"),
    path(FED + "officer/players/", views.officer_players, name="officer-players"),
    path(FED + "officer/duplicates/", views.officer_duplicates, name="officer-duplicates"),
    path(FED + "officer/links/", views.officer_links, name="officer-links"),
    path(FED + "officer/clubs/", views.officer_clubs, name="officer-clubs"),
]
