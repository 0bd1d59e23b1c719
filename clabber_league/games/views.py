"""Pages of games: start a game, enter deals at the table, the score sheet, corrections.

Views translate between the request and the services; nothing here scores a deal.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from clabber_league.clubs.decorators import club_view
from clabber_league.clubs.models import Player
from clabber_league.clubs.privacy import sees_names
from clabber_league.leagues.models import Division, Team
from clabber_league.scheduling.models import Fixture

from . import adapters, selectors, services
from .forms import DealForm, SheetRowsForm
from .models import Deal, Game
from .sheet import game_sheet, sheet_cell

OUTCOME_WORDS = {
    "made": "made it",
    "set": "set (XX)",
    "renege": "renege",
    "passed": "passed out",
    "redeal": "redeal",
    "hung": "tie hangs",
}


def _game_or_404(request: HttpRequest, pk: int) -> Game:
    try:
        return selectors.game_get(club=request.club, pk=pk)
    except Game.DoesNotExist as exc:
        raise Http404("No such game in this club.") from exc


def _names(game: Game, to_member: bool = True) -> tuple[dict[int, str], dict[str, str]]:
    """Seat and side names; to someone outside the club, players who chose so are shown by
    their initials (``clubs.privacy``)."""
    seat_names = {s.seat: s.player.shown_name(to_member=to_member) for s in game.seats.all()}
    side_names = {}
    for side in game.sides.all():
        players = " & ".join(seat_names[s.seat] for s in game.seats.all() if s.side == side.side)
        side_names[side.side] = side.team.name if side.team else players
    return seat_names, side_names


def _deal_form(game: Game, data: Any = None, initial: dict | None = None) -> DealForm:
    seat_names, side_names = _names(game)
    return DealForm(
        data=data,
        initial=initial,
        game=game,
        ruleset=adapters.game_ruleset(game),
        seat_names=seat_names,
        side_names=side_names,
    )


def _context(request: HttpRequest, game: Game, **extra: Any) -> dict[str, Any]:
    to_member = sees_names(request.club_access)
    seat_names, side_names = _names(game, to_member=to_member)
    # A game takes at most max_deals() deals; an older, longer one shows its first ones.
    deals = list(game.deals.all()[: services.max_deals()])
    return {
        "deals_not_shown": max(game.deal_count - len(deals), 0),
        "club": request.club,
        "access": request.club_access,
        "game": game,
        "seat_names": seat_names,
        "side_names": side_names,
        "player_names": {
            s.player_id: s.player.shown_name(to_member=to_member) for s in game.seats.all()
        },
        "deals": deals,
        "ruleset": adapters.game_ruleset(game),
        "sheet": game_sheet(game, deals, seat_names, side_names),
        **extra,
    }


# --- the game's page: the score sheet --------------------------------------------------------


@club_view("read")
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_or_404(request, pk)
    revisions = selectors.revision_list(club=request.club, game_id=game.pk)[:100]
    refusal = None
    if game.status == Game.Status.FINISHED and request.user.is_authenticated:
        refusal = services.game_confirm_refusal(
            game=game, user=request.user, access=request.club_access
        )
    return render(
        request,
        "games/sheet.html",
        _context(request, game, revisions=revisions, confirm_refusal=refusal),
    )


# --- starting a game ----------------------------------------------------------------------


class FixtureChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Fixture) -> str:
        when = f"{obj.date:%a %-d %b %Y}" if obj.date else "date to be arranged"
        return f"Round {obj.round_number}: {obj.home.name} v {obj.away.name} ({when})"


class GameStartForm(forms.Form):
    """A game for a fixture counts for that fixture; a game without one is a match of its
    own (a friendly, or a single game outside the schedule)."""

    division = forms.ModelChoiceField(queryset=Division.objects.none())
    fixture = FixtureChoiceField(
        queryset=Fixture.objects.none(),
        required=False,
        empty_label="None: a game outside the schedule",
        help_text="A scheduled fixture this game is played for: it counts for that fixture. "
        "Side A is its home team, side B the away team; leave the sides empty to fill them in.",
    )
    team_a = forms.ModelChoiceField(queryset=Team.objects.none(), label="Side A", required=False)
    team_b = forms.ModelChoiceField(queryset=Team.objects.none(), label="Side B", required=False)
    first_dealer = forms.TypedChoiceField(
        coerce=int,
        initial=0,
        label="First dealer",
        choices=[(i, f"Seat {i + 1}") for i in range(6)],
        help_text="Seats go clockwise: A's first player, B's first player, A's second, ...",
    )

    def __init__(self, *args: Any, club: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["division"].queryset = Division.objects.filter(club=club).select_related(
            "season"
        )
        teams = Team.objects.filter(club=club).select_related("division")
        self.fields["team_a"].queryset = teams
        self.fields["team_b"].queryset = teams
        fixtures = (
            Fixture.objects.filter(club=club)
            .exclude(status__in=Fixture.DONE)
            .select_related("home", "away")
            .order_by("round_number", "date", "id")
        )
        division = self.data.get("division") if self.is_bound else self.initial.get("division")
        if division and str(division).isdigit():
            fixtures = fixtures.filter(division_id=int(division))
        self.fields["fixture"].queryset = fixtures

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        fixture, division = data.get("fixture"), data.get("division")
        if fixture is not None and division is not None:
            if fixture.division_id != division.pk:
                self.add_error("fixture", services.FIXTURE_OTHER_DIVISION)
                return data
            data["team_a"] = data.get("team_a") or fixture.home
            data["team_b"] = data.get("team_b") or fixture.away
            if (data["team_a"], data["team_b"]) != (fixture.home, fixture.away):
                self.add_error(
                    None,
                    services.FIXTURE_TEAMS.format(home=fixture.home.name, away=fixture.away.name),
                )
        for name in ("team_a", "team_b"):
            if not data.get(name) and name not in self.errors:
                self.add_error(name, forms.Field.default_error_messages["required"])
        return data


@club_view("score")
def game_new(request: HttpRequest) -> HttpResponse:
    form = GameStartForm(
        request.POST or None, club=request.club, initial={"division": request.GET.get("division")}
    )
    if request.method == "POST" and form.is_valid():
        c = form.cleaned_data
        a, b = c["team_a"], c["team_b"]
        if a == b:
            form.add_error("team_b", "A team cannot play itself.")
        else:
            a_players = [m.player for m in a.members.select_related("player")]
            b_players = [m.player for m in b.members.select_related("player")]
            seats: list[Player] = []
            for pair in zip(a_players, b_players, strict=False):
                seats.extend(pair)
            try:
                game = services.game_start(
                    club=request.club,
                    division=c["division"],
                    sides={"A": a, "B": b},
                    seats=seats,
                    first_dealer=c["first_dealer"],
                    fixture=c.get("fixture"),
                    user=request.user,
                )
            except services.GameError as exc:
                for error in exc.errors:
                    form.add_error(None, error["message"])
            else:
                messages.success(request, "Game started. Enter the first deal.")
                return redirect("games:deal-new", club_slug=request.club.slug, pk=game.pk)
    return render(request, "games/new.html", {"club": request.club, "form": form})


# --- entering a deal -------------------------------------------------------------------------


def _preview_context(game: Game, form: DealForm, deal: Deal | None = None) -> dict[str, Any]:
    """Validate and score the form without saving: as the next deal, or as the correction
    of ``deal`` (its own number and running totals)."""
    preview = None
    cells: list = []
    if form.is_valid():
        data, maker_seat = form.to_engine()
        try:
            if deal is not None:
                preview = services.deal_correct_preview(deal=deal, data=data, maker_seat=maker_seat)
            else:
                preview = services.deal_preview(game=game, data=data, maker_seat=maker_seat)
        except services.GameError as exc:
            form.add_engine_errors(exc.errors)
        else:
            answer = preview.answer
            cells = [
                sheet_cell(answer["outcome"], data.get("maker"), answer["score"], side)
                for side in answer["score"]
            ]
    return {"form": form, "preview": preview, "preview_cells": cells}


@club_view("score")
def deal_new(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_or_404(request, pk)
    if game.status != Game.Status.IN_PROGRESS:
        messages.info(
            request,
            services.GAME_ABANDONED if game.status == "abandoned" else services.GAME_FINISHED,
        )
        return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
    form = _deal_form(game, request.POST or None)
    if request.method == "POST" and form.is_valid():
        data, maker_seat = form.to_engine()
        try:
            recorded = services.deal_record(
                game=game,
                data=data,
                maker_seat=maker_seat,
                user=request.user,
                idempotency_key=request.POST.get("idempotency_key") or None,
            )
        except services.GameError as exc:
            form.add_engine_errors(exc.errors)
        else:
            return _after_saving(request, game, recorded.deal)
    next_number = game.deal_count + 1
    return render(
        request,
        "games/deal_form.html",
        _context(
            request,
            game,
            form=form,
            number=next_number,
            editing=None,
            next_dealer=_next_dealer_name(game),
            idempotency_key=uuid.uuid4().hex,
        ),
    )


def _next_dealer_name(game: Game) -> str:
    seat_names, _ = _names(game)
    deals = list(game.deals.all())
    if not deals:
        return seat_names.get(game.first_dealer, "")
    preview_seat = services.next_dealer_seat(game=game)
    return seat_names.get(preview_seat, "") if preview_seat is not None else ""


def _after_saving(request: HttpRequest, game: Game, deal: Deal) -> HttpResponse:
    game.refresh_from_db()
    _, side_names = _names(game)
    score = ", ".join(f"{side_names.get(s, s)} {v}" for s, v in deal.scores.items())
    words = OUTCOME_WORDS.get(deal.outcome, deal.outcome)
    if game.status == Game.Status.FINISHED:
        winner = "a tie" if game.winner == "tie" else f"{side_names.get(game.winner)} win"
        messages.success(
            request, f"Deal {deal.number} saved ({words}: {score}). Game over: {winner}."
        )
        return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
    messages.success(request, f"Deal {deal.number} saved ({words}: {score}).")
    return redirect("games:deal-new", club_slug=request.club.slug, pk=game.pk)


@require_POST
@club_view("score")
def deal_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """htmx: the deal's score, running totals and next dealer, or each error by its field."""
    game = _game_or_404(request, pk)
    form = _deal_form(game, request.POST)
    correcting = request.POST.get("correcting", "")
    deal = None
    if correcting.isdigit():
        deal = next((d for d in game.deals.all() if d.number == int(correcting)), None)
        if deal is None:
            raise Http404("No such deal.")
    context = _context(request, game, oob=True, editing=deal, **_preview_context(game, form, deal))
    return render(request, "games/_preview.html", context)


@club_view("score")
def deal_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = _game_or_404(request, pk)
    deal = next((d for d in game.deals.all() if d.number == number), None)
    if deal is None:
        raise Http404("No such deal.")
    if game.status in (Game.Status.CONFIRMED, Game.Status.ABANDONED):
        messages.error(
            request,
            services.GAME_ABANDONED if game.status == "abandoned" else services.GAME_CONFIRMED,
        )
        return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
    form = _deal_form(game, request.POST or None, initial=deal_initial(deal, _deal_form(game)))
    if request.method == "POST" and form.is_valid():
        data, maker_seat = form.to_engine()
        try:
            services.deal_correct(deal=deal, data=data, maker_seat=maker_seat, user=request.user)
        except services.GameError as exc:
            form.add_engine_errors(exc.errors)
        else:
            messages.success(request, f"Deal {number} corrected; the totals after it are updated.")
            return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
    return render(
        request,
        "games/deal_form.html",
        _context(
            request,
            game,
            form=form,
            number=number,
            editing=deal,
            next_dealer="",
        ),
    )


@club_view("score")
def deal_delete(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """GET: what deleting the deal would do, with a button to go on; POST: delete it (kept in
    the game's history)."""
    game = _game_or_404(request, pk)
    deal = next((d for d in game.deals.all() if d.number == number), None)
    if deal is None:
        raise Http404("No such deal.")
    if request.method == "POST":
        try:
            services.deal_delete(deal=deal, user=request.user)
        except services.GameError as exc:
            messages.error(request, exc.errors[0]["message"])
        else:
            messages.success(request, f"Deal {number} deleted; the deals after it moved up.")
        return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
    return render(
        request,
        "games/confirm_delete.html",
        _context(request, game, deal=deal),
    )


@club_view("score")
def game_abandon(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what abandoning the game means, with a button to go on; POST: abandon it (the
    same service as the API's ``games/{id}/abandon/``)."""
    game = _game_or_404(request, pk)
    if request.method == "POST":
        try:
            services.game_abandon(game=game, user=request.user)
        except services.GameError as exc:
            messages.error(request, exc.errors[0]["message"])
        else:
            messages.success(
                request, "Game abandoned: it counts nowhere and its fixture can be played again."
            )
        return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
    return render(request, "games/confirm_abandon.html", _context(request, game))


@require_POST
@club_view("play")
def game_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_or_404(request, pk)
    try:
        services.game_confirm(game=game, user=request.user, access=request.club_access)
    except services.GameError as exc:
        messages.error(request, exc.errors[0]["message"])
    else:
        messages.success(request, "Result confirmed. Thank you!")
    return redirect(reverse("games:detail", kwargs={"club_slug": request.club.slug, "pk": pk}))


def deal_initial(deal: Deal, form: DealForm) -> dict[str, Any]:
    """The form's fields for a recorded deal (for corrections)."""
    d = deal.data
    initial: dict[str, Any] = {"passed": bool(d.get("passed"))}
    bidding = d.get("bidding") or {}
    initial["round"] = bidding.get("round")
    initial["turned"] = bidding.get("turned")
    initial["maker_seat"] = deal.maker_seat
    initial["trump"] = d.get("trump")
    initial["last_trick"] = d.get("last_trick")
    points = dict(d.get("points") or {})
    if form.ruleset.all_cards_played and len(points) == len(form.sides):
        points.pop(form.sides[-1])  # derived again from the others, as on the entry page
    for side, value in points.items():
        initial[f"points_{side}"] = value
    for side, tricks in (d.get("tricks") or {}).items():
        initial[f"tricks_{side}"] = tricks
    if d.get("bell"):
        bell_seats = [s for s in form.seat_names if form.seat_side(s) == d["bell"]]
        initial["bell"] = bell_seats[0] if bell_seats else None
    initial["renege"] = list(d.get("renege") or [])
    row = 0
    for side, melds in (d.get("melds") or {}).items():
        for meld in melds:
            seat = meld.get("player")
            if seat is None:
                seat = next((s for s in form.seat_names if form.seat_side(s) == side), None)
            initial[f"meld_{row}_seat"] = seat
            if meld.get("kind") == "sequence":
                initial[f"meld_{row}_kind"] = f"run-{meld.get('length')}"
                initial[f"meld_{row}_suit"] = meld.get("suit")
                initial[f"meld_{row}_top"] = meld.get("top")
            else:
                initial[f"meld_{row}_kind"] = f"four-{meld.get('rank')}"
            row += 1
    return initial


@club_view("score")
def sheet_rows(request: HttpRequest, pk: int) -> HttpResponse:
    """Quick entry of an old paper sheet: two numbers, the maker and the mark per row."""
    game = _game_or_404(request, pk)
    if game.status != Game.Status.IN_PROGRESS:
        messages.info(request, services.GAME_FINISHED)
        return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
    form = SheetRowsForm(
        request.POST or None, ruleset=adapters.game_ruleset(game), side_names=_names(game)[1]
    )
    if request.method == "POST" and form.is_valid():
        rows = form.rows()
        if rows:
            try:
                deals = services.sheet_rows_record(game=game, rows=rows, user=request.user)
            except services.GameError as exc:
                form.add_row_errors(exc.errors)
            else:
                messages.success(request, f"{len(deals)} rows copied from the paper sheet.")
                return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
    return render(request, "games/sheet_rows.html", _context(request, game, form=form))
