"""A club of one's own: creating it (``/clubs/new/``), its settings, its backup, deleting
it, and adding its members in one go."""

from django.urls import path

from . import views

CLUB = "clubs/<slug:club_slug>/"

urlpatterns = [
    path("clubs/new/", views.club_new, name="club-new"),
    path(CLUB + "settings/", views.club_settings, name="club-settings"),
    path(CLUB + "settings/backup/", views.club_backup, name="club-backup"),
    path(CLUB + "settings/delete/", views.club_delete_page, name="club-delete"),
    path(CLUB + "members/add/", views.members_add, name="club-members-add"),
]
