"""Cup pages, under ``/clubs/<club>/cups/``."""

from django.urls import path

from . import views

app_name = "cups"

TIE = "<int:cup_pk>/ties/<int:pk>/"

urlpatterns = [
    path("", views.cup_list, name="list"),
    path("new/", views.cup_new, name="new"),
    path("<int:pk>/", views.cup_detail, name="detail"),
    path("<int:pk>/bracket/", views.cup_bracket, name="bracket"),
    path("<int:pk>/seed/", views.cup_action, {"what": "seed"}, name="seed"),
    path("<int:pk>/draw/", views.cup_action, {"what": "draw"}, name="draw"),
    path("<int:pk>/build/", views.cup_action, {"what": "build"}, name="build"),
    path("<int:pk>/place/", views.cup_action, {"what": "place"}, name="place"),
    path(TIE, views.tie_detail, name="tie"),
    path(TIE + "start/", views.tie_action, {"what": "start"}, name="tie-start"),
    path(TIE + "walkover/", views.tie_action, {"what": "walkover"}, name="tie-walkover"),
    path(TIE + "place/", views.tie_action, {"what": "place"}, name="tie-place"),
]
