"""Webhooks' reads: a club's subscriptions, a subscription's deliveries and their log."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from clabber_league.clubs.models import Club

from .models import Attempt, Delivery, Subscription


def subscription_list(*, club: Club) -> QuerySet[Subscription]:
    return Subscription.objects.filter(club=club).order_by("-created_at", "-pk")


def subscription_get(*, club: Club, pk: int) -> Subscription:
    return Subscription.objects.get(club=club, pk=pk)


def delivery_list(*, subscription: Subscription) -> QuerySet[Delivery]:
    """Newest first, each with its tries (the log)."""
    return (
        Delivery.objects.filter(subscription=subscription)
        .order_by("-created_at", "-pk")
        .prefetch_related(Prefetch("log", queryset=Attempt.objects.order_by("number")))
    )


def delivery_get(*, club: Club, pk: int) -> Delivery:
    return Delivery.objects.select_related("subscription").get(subscription__club=club, pk=pk)
