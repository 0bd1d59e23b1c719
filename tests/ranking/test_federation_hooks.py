"""Who counts as whom changes in the federation, and the ranking follows (issue 34): a
club player's link approved queues the ranking's replay once the change commits."""

from __future__ import annotations

import pytest

from clabber_league.federation import services as federation_services
from clabber_league.federation.access import federation_access
from clabber_league.federation.models import FederationPlayer, Officer, PlayerLink
from clabber_league.ranking import tasks
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_an_approved_link_replays_the_ranking(
    federation, clubs, django_capture_on_commit_callbacks, monkeypatch
):
    replayed = []
    monkeypatch.setattr(tasks.recompute, "delay", lambda *a, **k: replayed.append((a, k)))
    officer = UserFactory(username="officer")
    Officer.objects.create(federation=federation, user=officer)
    player = PlayerFactory(club=clubs[0]["club"], name="Ann Visser")
    record = FederationPlayer.objects.create(federation=federation, number="N-9", name="Ann")
    link = PlayerLink.objects.create(federation=federation, federation_player=record, player=player)
    access = federation_access(slug=federation.slug, user=officer)
    with django_capture_on_commit_callbacks(execute=True):
        federation_services.link_decide(access=access, link=link, approve=False)
    assert replayed == []  # a refusal changes nobody's results
    link.status = PlayerLink.Status.PROPOSED  # proposed again, by the club
    link.save(update_fields=["status"])
    with django_capture_on_commit_callbacks(execute=True):
        federation_services.link_decide(access=access, link=link, approve=True)
    assert len(replayed) == 1
