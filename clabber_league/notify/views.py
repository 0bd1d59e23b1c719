"""A member's notification choices and devices: the section of ``/me/settings/`` posts here.

``device_add`` takes the browser's push subscription as JSON (the settings page's script,
``static/js/push_subscribe.js``) and answers JSON; the others are forms that go back to
the settings page."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clabber_league.core.errors import STATUS

from . import services
from .forms import NotifyForm
from .templatetags.notify_tags import section_context

BAD_JSON = gettext_lazy("Send the push subscription as a JSON object.")


def _back() -> HttpResponse:
    return redirect(reverse("members:settings") + "#notifications")


@login_required
def notify_settings(request: HttpRequest) -> HttpResponse:
    """Save the choices; with a mistake, the section again on a page of its own."""
    if request.method != "POST":
        return _back()
    form = NotifyForm(request.POST)
    if form.is_valid():
        try:
            services.notify_settings_save(
                user=request.user,
                channels=form.channels(),
                quiet_start=form.cleaned_data["quiet_start"],
                quiet_end=form.cleaned_data["quiet_end"],
            )
        except services.NotifyError as exc:
            form.add_service_errors(exc.errors)
        else:
            messages.success(request, _("Your notification choices are saved."))
            return _back()
    context = section_context(request, form=form)
    return render(request, "notify/settings.html", context, status=400)


def device_label(user_agent: str) -> str:
    """ "Firefox on Android": enough for a member to tell their devices apart."""
    ua = user_agent or ""
    browser = next(
        (
            name
            for key, name in (
                ("Edg/", "Edge"),
                ("OPR/", "Opera"),
                ("SamsungBrowser", "Samsung Internet"),
                ("Firefox/", "Firefox"),
                ("Chrome/", "Chrome"),
                ("Chromium/", "Chromium"),
                ("Safari/", "Safari"),
            )
            if key in ua
        ),
        "",
    )
    system = next(
        (
            name
            for key, name in (
                ("Android", "Android"),
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Windows", "Windows"),
                ("Mac OS", "macOS"),
                ("Linux", "Linux"),
            )
            if key in ua
        ),
        "",
    )
    if browser and system:
        return _("%(browser)s on %(system)s") % {"browser": browser, "system": system}
    return browser or system or _("A browser")


@login_required
@require_POST
def device_add(request: HttpRequest) -> HttpResponse:
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        data = None
    if not isinstance(data, dict):
        return JsonResponse({"errors": [{"field": "", "message": str(BAD_JSON)}]}, status=400)
    keys = data.get("keys") if isinstance(data.get("keys"), dict) else {}
    try:
        device = services.push_subscription_save(
            user=request.user,
            endpoint=str(data.get("endpoint") or ""),
            p256dh=str(keys.get("p256dh") or ""),
            auth=str(keys.get("auth") or ""),
            label=device_label(request.headers.get("User-Agent", "")),
        )
    except services.NotifyError as exc:
        return JsonResponse({"errors": exc.errors}, status=STATUS[exc.kind])
    return JsonResponse({"id": device.pk, "label": device.label}, status=201)


@login_required
@require_POST
def device_delete(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        services.push_subscription_delete(user=request.user, pk=pk)
    except services.NotifyError:
        pass  # already gone: the list shows what is left
    else:
        messages.success(request, _("The device gets no more notifications."))
    return _back()


@login_required
@require_POST
def device_test(request: HttpRequest) -> HttpResponse:
    services.notification_test(user=request.user)
    messages.success(request, _("A test notification is on its way to your devices."))
    return _back()
