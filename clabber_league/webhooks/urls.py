"""Webhook pages, under ``/clubs/<club>/webhooks/`` (club admins)."""

from django.urls import path

from . import views

app_name = "webhooks"

urlpatterns = [
    path("", views.subscription_list, name="list"),
    path("<int:pk>/", views.subscription_detail, name="detail"),
    path("<int:pk>/pause/", views.subscription_pause, name="pause"),
    path("<int:pk>/delete/", views.subscription_delete, name="delete"),
    path("<int:pk>/test/", views.subscription_test, name="test"),
    path("<int:pk>/rotate-secret/", views.subscription_rotate, name="rotate-secret"),
    path(
        "<int:pk>/deliveries/<int:delivery_pk>/resend/",
        views.delivery_resend,
        name="resend",
    ),
]
