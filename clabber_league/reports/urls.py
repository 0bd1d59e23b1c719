"""The club's reports, under ``/clubs/<club>/reports/``."""

from django.urls import path

from . import views

app_name = "reports"

urlpatterns = [
    path("", views.report_list, name="list"),
    path("<int:pk>/", views.report_detail, name="detail"),
    path("<int:pk>.txt", views.report_text, name="text"),
    path("<int:pk>/edit/", views.report_edit, name="edit"),
]
