"""The live pages, under ``/clubs/<club_slug>/live/``."""

from django.urls import path, re_path

from . import views

app_name = "live"

#: The boards: a club night, a division's fixtures on a date, a cup.
BOARDS = (
    r"(?P<kind>night)/(?P<ref>\d+)",
    r"(?P<kind>league)/(?P<ref>\d+/\d{4}-\d{2}-\d{2})",
    r"(?P<kind>cup)/(?P<ref>\d+)",
)

urlpatterns = [path("", views.live_index, name="index")]
for board in BOARDS:
    urlpatterns += [
        re_path(rf"^{board}/$", views.live_page, name="page"),
        re_path(rf"^{board}/board\.json$", views.live_board_json, name="board-json"),
        re_path(rf"^{board}/stream/$", views.live_stream, name="stream"),
        re_path(rf"^{board}/overlay/$", views.live_overlay, name="overlay"),
    ]
