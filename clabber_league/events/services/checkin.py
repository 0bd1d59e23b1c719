"""Check-in on the night: members ticked as they arrive, walk-ins added by name, late
arrivals and leavers.

A player checked in before round 1 is drawn from round 1; one who arrives once a round is
drawn joins from the next round (``Entry.joins_from_round``). A player who leaves plays the
round in progress to its end and is dropped from the next draw (``Entry.left_after_round``);
one who leaves before any round is drawn is simply not there. A walk-in is matched to the
club's players by name without regard to case (so "ANNA de vries" is Anna de Vries), and
only a name nobody has becomes a new player.
"""

from __future__ import annotations

from django.db import IntegrityError, models, transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy

from clabber_league.clubs.models import Player
from clabber_league.core.errors import CONFLICT, ServiceError

from ..models import MAX_ENTRIES, Entry, Event, Pair, Round

CHECKED_IN_TWICE = gettext_lazy("{name} is already checked in.")
PLAYER_OTHER_CLUB = gettext_lazy("This player is not a member of the club.")
WALK_IN_NAME = gettext_lazy("Give the walk-in's name (at most 120 characters).")
WALK_IN_AMBIGUOUS = gettext_lazy(
    "{count} players of the club are called “{name}”: tick the right one in the list instead."
)
EVENT_CLOSED = gettext_lazy("This event is finished: no more check-ins.")
EVENT_FULL = gettext_lazy("An event takes at most {cap} players.")
NOT_CHECKED_IN = gettext_lazy("{name} is not checked in.")
ALREADY_LEFT = gettext_lazy("{name} has already left (after round {round}).")
PAIRS_ONLY = gettext_lazy("Pairs are entered only at a fixed-pairs event.")
PAIR_SAME_PLAYER = gettext_lazy("A pair is two different players.")
PAIR_TAKEN = gettext_lazy("{name} already plays in pair {number}.")
LAST_ROUND_DRAWN = gettext_lazy(
    "Every round of this event is drawn: there is no round left to join."
)


class CheckInError(ServiceError):
    """A refused check-in or departure."""


def next_round_number(event: Event) -> int:
    """The number of the next round to be drawn (1 before any)."""
    last = event.round_set.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def _drawn(event: Event) -> int:
    return next_round_number(event) - 1


def _locked_event(event: Event) -> Event:
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise CheckInError.one("event", EVENT_CLOSED, kind=CONFLICT)
    return event


def _check_in(event: Event, player: Player, field_name: str) -> Entry:
    """Check ``player`` in for the next round to be drawn (the event row locked)."""
    joins = next_round_number(event)
    if joins > event.rounds:
        raise CheckInError.one(field_name, LAST_ROUND_DRAWN, kind=CONFLICT)
    entry = Entry.objects.filter(event=event, player=player).first()
    now = timezone.now()
    if entry is None:
        if Entry.objects.filter(event=event).count() >= MAX_ENTRIES:
            raise CheckInError.one(field_name, EVENT_FULL.format(cap=MAX_ENTRIES))
        try:
            with transaction.atomic():
                return Entry.objects.create(
                    event=event,
                    player=player,
                    checked_in=True,
                    checked_in_at=now,
                    joins_from_round=joins,
                )
        except IntegrityError:  # the same tap twice at once: the lock makes this rare
            entry = Entry.objects.get(event=event, player=player)
    playing = entry.checked_in and (
        entry.left_after_round is None or entry.left_after_round >= joins
    )
    if playing:
        message = CHECKED_IN_TWICE.format(name=player.name)
        raise CheckInError.one(field_name, message, kind=CONFLICT)
    # Back after leaving (or entered but not yet here): from the next round on.
    entry.checked_in = True
    entry.checked_in_at = now
    if entry.left_after_round is not None or entry.joins_from_round < joins:
        entry.joins_from_round = joins
    entry.left_after_round = None
    entry.save(
        update_fields=["checked_in", "checked_in_at", "joins_from_round", "left_after_round"]
    )
    return entry


@transaction.atomic
def entry_check_in(*, event: Event, player: Player) -> Entry:
    """Tick a member as arrived. A player already checked in is a clear error (409)."""
    event = _locked_event(event)
    if player.club_id != event.club_id:
        raise CheckInError.one("player", PLAYER_OTHER_CLUB)
    return _check_in(event, player, "player")


@transaction.atomic
def entry_walk_in(*, event: Event, name: str) -> Entry:
    """Check in a walk-in by name: the club's player of that name whatever its case, else a
    new player of the club. Two players whose names differ only in case are not guessed
    between: the secretary ticks the right one."""
    event = _locked_event(event)
    return _check_in(event, _player_named(event, name, "name"), "name")


def _player_named(event: Event, name: str, field_name: str) -> Player:
    """The club's player called ``name`` whatever its case, else a new player of the club;
    two players of that name are not guessed between."""
    name = " ".join((name or "").split())
    if not name or len(name) > 120:
        raise CheckInError.one(field_name, WALK_IN_NAME)
    matches = list(
        Player.objects.filter(club_id=event.club_id)
        .annotate(lower=Lower("name"))
        .filter(lower=name.lower())
        .order_by("pk")[:5]
    )
    if len(matches) > 1:
        message = WALK_IN_AMBIGUOUS.format(count=len(matches), name=name)
        raise CheckInError.one(field_name, message)
    return matches[0] if matches else Player.objects.create(club_id=event.club_id, name=name)


@transaction.atomic
def entry_leave(*, event: Event, player: Player) -> Entry | None:
    """A player leaves: they finish the round drawn and are dropped from the next draw.
    Before any round is drawn their entry is simply removed (``None``)."""
    event = _locked_event(event)
    entry = Entry.objects.select_for_update().filter(event=event, player=player).first()
    if entry is None or not entry.checked_in:
        raise CheckInError.one("player", NOT_CHECKED_IN.format(name=player.name), kind=CONFLICT)
    drawn = _drawn(event)
    if entry.left_after_round is not None and entry.left_after_round <= drawn:
        message = ALREADY_LEFT.format(name=player.name, round=entry.left_after_round)
        raise CheckInError.one("player", message, kind=CONFLICT)
    played = Round.objects.filter(event=event, number__gte=entry.joins_from_round).exists()
    if not played:
        # Never drawn: as if they had not come (an entry of a round they never played
        # would only confuse the ranking).
        entry.delete()
        return None
    entry.left_after_round = drawn
    entry.save(update_fields=["left_after_round"])
    return entry


@transaction.atomic
def entry_paid_set(*, event: Event, player: Player, paid: bool = True) -> Entry:
    """Record that a player paid (or did not pay) the entry fee."""
    entry = Entry.objects.select_for_update().filter(event=event, player=player).first()
    if entry is None:
        raise CheckInError.one("player", NOT_CHECKED_IN.format(name=player.name), kind=CONFLICT)
    entry.paid = paid
    entry.save(update_fields=["paid"])
    return entry


def entries_playing(*, event: Event, round_number: int) -> list[Entry]:
    """The entries drawn for round ``round_number``."""
    entries = Entry.objects.filter(event=event, checked_in=True, joins_from_round__lte=round_number)
    return [e for e in entries.select_related("player") if e.plays_in(round_number)]


@transaction.atomic
def pair_enter(*, event: Event, player_1: Player, player_2: Player) -> Pair:
    """Enter two players as a pair of a fixed-pairs event, checking in whichever of them is
    not yet here. A player in another pair already is refused (409)."""
    event = _locked_event(event)
    if event.format != Event.Format.PAIRS:
        raise CheckInError.one("format", PAIRS_ONLY, kind=CONFLICT)
    if player_1.pk == player_2.pk:
        raise CheckInError.one("player_2", PAIR_SAME_PLAYER)
    for name, player in (("player_1", player_1), ("player_2", player_2)):
        if player.club_id != event.club_id:
            raise CheckInError.one(name, PLAYER_OTHER_CLUB)
        taken = (
            Pair.objects.filter(event=event)
            .filter(models.Q(player_1=player) | models.Q(player_2=player))
            .first()
        )
        if taken is not None:
            message = PAIR_TAKEN.format(name=player.name, number=taken.number)
            raise CheckInError.one(name, message, kind=CONFLICT)
    for name, player in (("player_1", player_1), ("player_2", player_2)):
        entry = Entry.objects.filter(event=event, player=player).first()
        joins = next_round_number(event)
        if entry is None or not entry.plays_in(joins):
            _check_in(event, player, name)
    number = (Pair.objects.filter(event=event).aggregate(n=models.Max("number"))["n"] or 0) + 1
    return Pair.objects.create(event=event, number=number, player_1=player_1, player_2=player_2)


@transaction.atomic
def pair_walk_in(*, event: Event, name_1: str, name_2: str) -> Pair:
    """:func:`pair_enter` for two players given by name (matched as a walk-in's is)."""
    locked = _locked_event(event)
    if locked.format != Event.Format.PAIRS:
        raise CheckInError.one("format", PAIRS_ONLY, kind=CONFLICT)
    player_1 = _player_named(locked, name_1, "player_1")
    player_2 = _player_named(locked, name_2, "player_2")
    return pair_enter(event=locked, player_1=player_1, player_2=player_2)
