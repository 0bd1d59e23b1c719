"""The results file's pages: a club's exports under ``/clubs/<club>/exchange/`` (club
admins), a federation's imports under ``/federations/<federation>/results/`` (its
officers)."""

from django.urls import path

from . import views

app_name = "exchange"

club_urlpatterns = [
    path("", views.club_exports, name="club-exports"),
    path("<str:kind>/<int:pk>.<str:form>", views.club_export_file, name="club-export-file"),
]

federation_urlpatterns = [
    path("", views.federation_results, name="federation-results"),
    path("<int:pk>/", views.result_file_detail, name="result-file"),
    path("periods/<int:pk>/close/", views.period_close, name="period-close"),
]
