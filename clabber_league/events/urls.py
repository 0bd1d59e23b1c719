"""Pages of club nights, under ``/clubs/<club_slug>/events/``: the secretary's (views) and
the room's, the wall's and the prize table's (views_public)."""

from django.urls import path

from . import views, views_public

app_name = "events"

urlpatterns = [
    # The secretary's pages (views).
    path("", views.event_list, name="index"),
    path("new/", views.event_new, name="new"),
    path("series/new/", views.series_new, name="series-new"),
    path("<int:pk>/", views.event_detail, name="detail"),
    path("<int:pk>/edit/", views.event_edit, name="edit"),
    path("<int:pk>/check-in/", views.entry_check_in, name="check-in"),
    path("<int:pk>/walk-in/", views.entry_walk_in, name="walk-in"),
    path("<int:pk>/pair/", views.pair_walk_in, name="pair"),
    path("<int:pk>/leave/", views.entry_leave, name="leave"),
    path("<int:pk>/paid/", views.entry_paid, name="paid"),
    path("<int:pk>/draw/", views.round_draw, name="draw"),
    path("<int:pk>/rounds/<int:number>/finish/", views.round_finish, name="round-finish"),
    path("<int:pk>/rounds/<int:number>/time/", views.round_time, name="round-time"),
    path("<int:pk>/rounds/<int:number>/status/", views.round_status, name="round-status"),
    # The room, the wall and the prize table (views_public).
    path("<int:pk>/display/", views_public.event_display, name="display"),
    path("<int:pk>/display/live/", views_public.event_display_live, name="display-live"),
    path("<int:pk>/prizes/", views_public.event_prizes, name="prizes"),
    path("<int:pk>/rounds/<int:number>/draw/", views_public.round_draw, name="round-draw"),
    path("<int:pk>/rounds/<int:number>/cards/", views_public.round_cards, name="round-cards"),
    path("check-a-draw/", views_public.draw_check_guide, name="draw-check"),
    path("series/", views_public.series_index, name="series-index"),
    path("series/<int:pk>/", views_public.series_page, name="series"),
    path("players/<int:pk>/", views_public.player_nights, name="player-nights"),
]
