"""Club nights' pages, under ``/clubs/<club>/events/``."""

from django.urls import path

from . import views

app_name = "events"

urlpatterns = [
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
]
