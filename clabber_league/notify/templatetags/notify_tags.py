"""``{% notify_settings %}``: the notifications section of ``/me/settings/`` (its own
include, so the members page only loads and places it)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from clabber_league.notify import services
from clabber_league.notify.forms import NotifyForm
from clabber_league.notify.models import PushSubscription

register = template.Library()


def section_context(request: Any, *, form: NotifyForm | None = None) -> dict[str, Any]:
    user = request.user
    return {
        "request": request,
        "notify_form": form or NotifyForm.for_settings(services.settings_for(user)),
        "devices": list(PushSubscription.objects.filter(user=user)),
        "vapid_public_key": services.vapid_public_key(),
        "push_configured": services.push_configured(),
        "sw_url": reverse("service-worker"),
    }


@register.inclusion_tag("notify/_settings.html", takes_context=True)
def notify_settings(context: template.Context) -> dict[str, Any]:
    request = context["request"]
    return {**section_context(request), "csrf_token": context.get("csrf_token")}
