"""Pages of club nights, under ``/clubs/<club_slug>/events/``."""

from django.urls import path

from . import views_public

app_name = "events"

urlpatterns = [
    # The room, the wall and the prize table (views_public).
    path("<int:pk>/display/", views_public.event_display, name="display"),
    path("<int:pk>/display/live/", views_public.event_display_live, name="display-live"),
    path("<int:pk>/prizes/", views_public.event_prizes, name="prizes"),
    path("<int:pk>/rounds/<int:number>/draw/", views_public.round_draw, name="round-draw"),
    path("<int:pk>/rounds/<int:number>/cards/", views_public.round_cards, name="round-cards"),
    path("series/", views_public.series_index, name="series-index"),
    path("series/<int:pk>/", views_public.series_page, name="series"),
    path("players/<int:pk>/", views_public.player_nights, name="player-nights"),
]
