"""A member's notifications, under ``/me/notifications/`` (the section of ``/me/settings/``)."""

from django.urls import path

from . import views

app_name = "notify"

urlpatterns = [
    path("me/notifications/", views.notify_settings, name="settings"),
    path("me/notifications/devices/", views.device_add, name="device-add"),
    path("me/notifications/devices/<int:pk>/delete/", views.device_delete, name="device-delete"),
    path("me/notifications/test/", views.device_test, name="test"),
]
