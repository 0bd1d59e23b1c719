"""Webhook pages for club admins: the list with a form to add one, and a subscription's
page (its secret right after it is made, its deliveries and their tries; pause, resume,
send a test event, re-send a delivery, delete)."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clabber_league.clubs.decorators import club_view

from . import selectors, services
from .forms import SubscriptionForm
from .models import Delivery, Subscription

#: The session key that holds a new secret until its page shows it (once).
SECRET_KEY = "webhooks.secret.{pk}"


@club_view("manage")
def subscription_list(request: HttpRequest) -> HttpResponse:
    club = request.club
    form = SubscriptionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            subscription = services.subscription_create(
                club=club,
                url=form.cleaned_data["url"],
                events=form.cleaned_data["events"],
                description=form.cleaned_data["description"],
                user=request.user,
            )
        except services.WebhookError as exc:
            form.add_service_errors(exc)
        else:
            request.session[SECRET_KEY.format(pk=subscription.pk)] = subscription.secret
            messages.success(request, _("Webhook added. Copy its secret now."))
            return redirect("webhooks:detail", club_slug=club.slug, pk=subscription.pk)
    subscriptions = list(selectors.subscription_list(club=club))
    return render(
        request,
        "webhooks/subscriptions.html",
        {"club": club, "form": form, "subscriptions": subscriptions},
    )


def _subscription(request: HttpRequest, pk: int) -> Subscription:
    try:
        return selectors.subscription_get(club=request.club, pk=pk)
    except Subscription.DoesNotExist as exc:
        raise Http404(_("No such webhook in this club.")) from exc


@club_view("manage")
def subscription_detail(request: HttpRequest, pk: int) -> HttpResponse:
    subscription = _subscription(request, pk)
    secret = request.session.pop(SECRET_KEY.format(pk=pk), None)
    page = Paginator(selectors.delivery_list(subscription=subscription), 20).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "webhooks/subscription.html",
        {"club": request.club, "subscription": subscription, "secret": secret, "page": page},
    )


@require_POST
@club_view("manage")
def subscription_pause(request: HttpRequest, pk: int) -> HttpResponse:
    subscription = _subscription(request, pk)
    resume = not subscription.active
    services.subscription_update(subscription=subscription, active=resume)
    messages.success(request, _("Webhook resumed.") if resume else _("Webhook paused."))
    return redirect("webhooks:detail", club_slug=request.club.slug, pk=pk)


@require_POST
@club_view("manage")
def subscription_delete(request: HttpRequest, pk: int) -> HttpResponse:
    services.subscription_delete(subscription=_subscription(request, pk))
    messages.success(request, _("Webhook deleted."))
    return redirect("webhooks:list", club_slug=request.club.slug)


@require_POST
@club_view("manage")
def subscription_test(request: HttpRequest, pk: int) -> HttpResponse:
    services.subscription_test(subscription=_subscription(request, pk))
    messages.success(request, _("Test event sent: its delivery is at the top of the list."))
    return redirect("webhooks:detail", club_slug=request.club.slug, pk=pk)


@require_POST
@club_view("manage")
def subscription_rotate(request: HttpRequest, pk: int) -> HttpResponse:
    subscription = services.subscription_secret_rotate(subscription=_subscription(request, pk))
    request.session[SECRET_KEY.format(pk=pk)] = subscription.secret
    messages.success(request, _("New secret made: the old one no longer signs. Copy it now."))
    return redirect("webhooks:detail", club_slug=request.club.slug, pk=pk)


@require_POST
@club_view("manage")
def delivery_resend(request: HttpRequest, pk: int, delivery_pk: int) -> HttpResponse:
    subscription = _subscription(request, pk)
    delivery = Delivery.objects.filter(subscription=subscription, pk=delivery_pk).first()
    if delivery is None:
        raise Http404(_("No such delivery."))
    try:
        services.delivery_resend(delivery=delivery)
    except services.WebhookError as exc:
        messages.error(request, " ".join(e["message"] for e in exc.errors))
    else:
        messages.success(request, _("Sending it again."))
    return redirect("webhooks:detail", club_slug=request.club.slug, pk=pk)
