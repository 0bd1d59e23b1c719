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
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_POST

from clabber_league.clubs import services as club_services
from clabber_league.clubs.decorators import club_view
from clabber_league.clubs.models import Player
from clabber_league.clubs.privacy import sees_names
from clabber_league.core.i18n import translated
from clabber_league.core.idempotency import valid_key
from clabber_league.leagues.models import Division, Team
from clabber_league.rules import get_ruleset
from clabber_league.scheduling.models import Fixture

from . import adapters, offline, selectors, services, table_links, wording
from .forms import DealForm, KlaverjasDealForm, SheetRowsForm, klaverjas_initial
from .models import Deal, Game
from .sheet import game_sheet, sheet_cell
from .table_links import page_grant

OUTCOME_WORDS = {
    "made": pgettext_lazy("deal outcome", "made it"),
    "set": pgettext_lazy("deal outcome", "set (XX)"),
    "renege": pgettext_lazy("deal outcome", "renege"),
    "passed": pgettext_lazy("deal outcome", "passed out"),
    "redeal": pgettext_lazy("deal outcome", "redeal"),
    "hung": pgettext_lazy("deal outcome", "tie hangs"),
}


def _actor(request: HttpRequest) -> Any:
    """Who writes: the account logged in, or nobody (a table link's phone)."""
    return request.user if request.user.is_authenticated else None


def _at_table(request: HttpRequest) -> str:
    """The table whose link this request came through ("" for a person logged in who
    scores by their role: their account is what the history names)."""
    return table_links.at_table(request.club_access, request.user)


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


def _deal_form(
    game: Game, data: Any = None, initial: dict | None = None, dealer: int | None = None
) -> DealForm:
    seat_names, side_names = _names(game)
    ruleset = adapters.game_ruleset(game)
    if ruleset.is_klaverjas:
        # The tally sheet's form: points with the last trick, roem, pit (KLAVERJAS.md 7).
        return KlaverjasDealForm(
            data=data,
            initial=initial,
            game=game,
            ruleset=ruleset,
            seat_names=seat_names,
            side_names=side_names,
            dealer=dealer,
        )
    return DealForm(
        data=data,
        initial=initial,
        game=game,
        ruleset=ruleset,
        seat_names=seat_names,
        side_names=side_names,
    )


def _form_template(form: DealForm) -> str:
    if isinstance(form, KlaverjasDealForm):
        return "games/deal_form_klaverjas.html"
    return "games/deal_form.html"


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
        # The phone of a table link: its token, for scripts that call the deal API with
        # ``Authorization: Table <token>`` (the offline outbox); None for anyone else.
        "table_token": table_links.session_token(request, game.pk)
        if request.club_access.table is not None
        else None,
        **extra,
    }


# --- the game's page: the score sheet --------------------------------------------------------


@club_view("read", table=page_grant)
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_or_404(request, pk)
    revisions = selectors.revision_list(club=request.club, game_id=game.pk)[:100]
    refusal = None
    if game.status == Game.Status.FINISHED and request.user.is_authenticated:
        refusal = services.game_confirm_refusal(
            game=game, user=request.user, access=request.club_access
        )
    context = _context(
        request,
        game,
        revisions=revisions,
        confirm_refusal=translated(refusal) if refusal else refusal,
    )
    if game.status in (Game.Status.FINISHED, Game.Status.CONFIRMED):
        # Who accepted, how and when; and, while it waits, which sides are still to accept.
        state = services.confirmation_state(game=game)
        history = list(game.acceptances.order_by("at", "id"))
        for acceptance in history:
            acceptance.counts = acceptance.after_revision >= state.last_revision  # type: ignore[attr-defined]
        context["history"] = history
        context["waiting_names"] = [context["side_names"][s] for s in state.waiting]
    return render(request, "games/sheet.html", context)


# --- starting a game ----------------------------------------------------------------------


TEAM_TWICE = gettext_lazy("A team cannot play itself.")
ACCEPTED_WAITING = gettext_lazy("You accepted the result: the other side accepts next.")
NO_SUCH_FIXTURE = gettext_lazy("No such fixture in this division.")
SEAT_EMPTY = gettext_lazy("Choose who sits here, or give a substitute's name.")
PAGE_KEY_INVALID = gettext_lazy(
    "This form's key was changed on its way: nothing was saved. Reload the page and enter "
    "the deal again."
)
NO_SUCH_PLAYER = gettext_lazy("No player of the club is called “{name}”.")
SIDE_LABELS = {
    "A": gettext_lazy("Side A"),
    "B": gettext_lazy("Side B"),
    "C": gettext_lazy("Side C"),
}


class TeamsForm(forms.Form):
    """A game outside the schedule: the division's teams, one per side (a GET form)."""

    def __init__(self, *args: Any, division: Division, sides: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        teams = Team.objects.filter(
            club_id=division.club_id, division=division, withdrawn_on__isnull=True
        ).order_by("name")
        for side in sides:
            self.fields[f"team_{side.lower()}"] = forms.ModelChoiceField(
                queryset=teams, label=SIDE_LABELS[side], empty_label=gettext("Choose a team")
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = [t for t in data.values() if t is not None]
        if len({t.pk for t in chosen}) != len(chosen):
            self.add_error(None, TEAM_TWICE)
        return data


class SeatsForm(forms.Form):
    """Who actually sits where, clockwise from seat 1, and who deals first.

    Each seat offers its side's team players; anyone else of the club sits in as a
    substitute, by name. The service decides what is allowed (``games.services.game_start``).
    """

    def __init__(
        self,
        *args: Any,
        club: Any,
        ruleset: Any,
        sides: dict[str, Team | None],
        rosters: dict[str, list[Player]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.side_count = len(ruleset.sides)
        self.seat_count = ruleset.players
        self.legends: list[str] = []
        dealer_choices = []
        for seat in range(self.seat_count):
            side = adapters.seat_side(seat, self.side_count)
            team = sides.get(side)
            roster = rosters.get(side, [])
            team_name = team.name if team else SIDE_LABELS[side]
            choices = [("", gettext("A substitute (name below)"))] + [
                (str(p.pk), p.name) for p in roster
            ]
            nth = seat // self.side_count
            initial = str(roster[nth].pk) if nth < len(roster) else ""
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                choices=choices,
                required=False,
                initial=initial,
                label=gettext("Player"),
            )
            self.legends.append(
                gettext("Seat %(seat)s · %(team)s") % {"seat": seat + 1, "team": team_name}
            )
            self.fields[f"sub_{seat}"] = forms.CharField(
                required=False,
                max_length=120,
                label=gettext("Or a substitute: any player of the club, by name"),
                widget=forms.TextInput(attrs={"autocomplete": "off", "data-seat-sub": seat}),
            )
            self.fields[f"seat_{seat}"].widget.attrs["data-seat"] = seat
            names = {str(p.pk): p.name for p in roster}
            if self.is_bound:  # as the scorer left it, when the form comes back with errors
                sub = " ".join(str(self.data.get(f"sub_{seat}", "")).split())[:120]
                name = sub or names.get(self.data.get(f"seat_{seat}", ""), gettext("a substitute"))
            else:
                name = names.get(initial, gettext("a substitute"))
            dealer_choices.append(
                (seat, gettext("Seat %(seat)s: %(name)s") % {"seat": seat + 1, "name": name})
            )
        self.fields["first_dealer"] = forms.TypedChoiceField(
            coerce=int,
            choices=dealer_choices,
            initial=0,
            label=gettext("Who deals first?"),
            widget=forms.RadioSelect(attrs={"data-dealer": "1"}),
        )
        self.roster_players = {str(p.pk): p for roster in rosters.values() for p in roster}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        seats: list[Player | None] = []
        for seat in range(self.seat_count):
            sub = (data.get(f"sub_{seat}") or "").strip()
            if sub:
                player = club_services.player_named(club=self.club, name=sub)
                if player is None:
                    self.add_error(f"sub_{seat}", str(NO_SUCH_PLAYER).format(name=sub))
                seats.append(player)
            elif data.get(f"seat_{seat}"):
                seats.append(self.roster_players.get(data[f"seat_{seat}"]))
            else:
                self.add_error(f"seat_{seat}", SEAT_EMPTY)
                seats.append(None)
        data["seats"] = seats
        return data

    def add_service_errors(self, errors: list[dict[str, str]]) -> None:
        """Each error of ``game_start`` beside its seat (``seats[2]``: seat 3's fields)."""
        for error in errors:
            name = error["field"]
            if name.startswith("seats[") and name.endswith("]") and name[6:-1].isdigit():
                seat = int(name[6:-1])
                name = f"sub_{seat}" if self.cleaned_data.get(f"sub_{seat}") else f"seat_{seat}"
            elif name == "first_dealer_player":
                name = "first_dealer"
            self.add_error(name if name in self.fields else None, translated(error["message"]))


def _match_from_query(
    request: HttpRequest, division: Division, side_names: list[str]
) -> tuple[Fixture | None, dict[str, Team | None] | None, TeamsForm, str]:
    """The match the game is for, from the query string: a fixture of the division, or a
    team per side; None while not chosen yet. Also the teams form and any error."""
    query = request.GET
    teams_form = TeamsForm(
        query if any(f"team_{s.lower()}" in query for s in side_names) else None,
        division=division,
        sides=side_names,
    )
    if query.get("fixture"):
        fixture = selectors.start_fixture(division=division, pk=query["fixture"])
        if fixture is None:
            return None, None, teams_form, NO_SUCH_FIXTURE
        return fixture, {"A": fixture.home, "B": fixture.away}, teams_form, ""
    if teams_form.is_bound and teams_form.is_valid():
        sides = {s: teams_form.cleaned_data[f"team_{s.lower()}"] for s in side_names}
        return None, sides, teams_form, ""
    return None, None, teams_form, ""


@club_view("score")
def game_new(request: HttpRequest) -> HttpResponse:
    """Start a game in three short steps, each a page of its own size, never the club's:
    the division; its fixture (a round or a team's name at a time) or two of its teams;
    then who sits where and who deals first."""
    club = request.club
    divisions = list(selectors.start_divisions(club=club)[:200])
    division = selectors.division_for_start(club=club, pk=request.GET.get("division"))
    if division is None and len(divisions) == 1:
        division = divisions[0]
    context: dict[str, Any] = {"club": club, "divisions": divisions, "division": division}
    if division is None:
        return render(request, "games/new.html", {**context, "step": "division"})
    ruleset = get_ruleset(division.rules_spec())
    side_names = list(ruleset.sides)
    fixture, sides, teams_form, error = _match_from_query(request, division, side_names)
    context.update(teams_form=teams_form, match_error=error, ruleset=ruleset)
    if sides is None and (teams_form.is_bound or request.GET.get("outside")):
        # Two of the division's teams: a page of its own, so that the fixtures' page does
        # not carry a choice of every team twice.
        return render(request, "games/new.html", {**context, "step": "outside"})
    if sides is None:
        round_number = request.GET.get("round", "")
        pick = selectors.fixtures_to_start(
            division=division,
            round_number=int(round_number) if round_number.isdigit() else None,
            search=request.GET.get("q", "")[:120],
            page=request.GET.get("page", 1),
        )
        return render(request, "games/new.html", {**context, "step": "match", "pick": pick})

    rosters = {s: selectors.team_roster(team=t) for s, t in sides.items() if t is not None}
    form = SeatsForm(request.POST or None, club=club, ruleset=ruleset, sides=sides, rosters=rosters)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_start(
                club=club,
                division=division,
                sides=sides,
                seats=form.cleaned_data["seats"],
                first_dealer=form.cleaned_data["first_dealer"],
                fixture=fixture,
                user=request.user,
            )
        except services.GameError as exc:
            form.add_service_errors(exc.errors)
        else:
            messages.success(request, gettext("Game started. Enter the first deal."))
            return redirect("games:deal-new", club_slug=club.slug, pk=game.pk)
    seat_rows = [
        {
            "seat": form[f"seat_{i}"],
            "sub": form[f"sub_{i}"],
            "legend": form.legends[i],
            "side": adapters.seat_side(i, len(side_names)),
        }
        for i in range(ruleset.players)
    ]
    return render(
        request,
        "games/new.html",
        {
            **context,
            "step": "seats",
            "form": form,
            "seat_rows": seat_rows,
            "fixture": fixture,
            "sides": sides,
        },
    )


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


@club_view("score", table=page_grant)
def deal_new(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_or_404(request, pk)
    if game.status != Game.Status.IN_PROGRESS:
        messages.info(
            request,
            services.GAME_ABANDONED if game.status == "abandoned" else services.GAME_FINISHED,
        )
        return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
    form = _deal_form(game, request.POST or None, dealer=services.next_dealer_seat(game=game))
    page_key = request.POST.get("idempotency_key") or None
    if page_key is not None and not valid_key(page_key):
        form.is_valid()
        form.add_error(None, PAGE_KEY_INVALID)  # never cut to fit: it could be another's
    elif request.method == "POST" and form.is_valid():
        data, maker_seat = form.to_engine()
        try:
            recorded = services.deal_record(
                game_id=game.pk,
                data=data,
                maker_seat=maker_seat,
                user=_actor(request),
                idempotency_key=page_key,
                at_table=_at_table(request),
            )
        except services.GameError as exc:
            form.add_engine_errors(exc.errors)
        else:
            return _after_saving(request, game, recorded.deal)
    next_number = game.deal_count + 1
    return render(
        request,
        _form_template(form),
        _context(
            request,
            game,
            form=form,
            number=next_number,
            editing=None,
            next_dealer=_next_dealer_name(game),
            idempotency_key=uuid.uuid4().hex,
            offline_game=offline.offline_game(request, game, *_names(game)),
        ),
    )


def _next_dealer_name(game: Game) -> str:
    seat_names, _ = _names(game)
    seat = services.next_dealer_seat(game=game)  # kept on the game row: no deal is read
    return seat_names.get(seat, "") if seat is not None else ""


def _after_saving(request: HttpRequest, game: Game, deal: Deal) -> HttpResponse:
    game.refresh_from_db()
    _, side_names = _names(game)
    score = ", ".join(f"{side_names.get(s, s)} {v}" for s, v in deal.scores.items())
    words = OUTCOME_WORDS.get(deal.outcome, deal.outcome)
    if game.status == Game.Status.FINISHED:
        winner = wording.winner_words(game.winner, side_names)
        messages.success(
            request,
            gettext("Deal %(number)s saved (%(outcome)s: %(score)s). Game over: %(winner)s.")
            % {"number": deal.number, "outcome": words, "score": score, "winner": winner},
        )
        if _at_table(request):  # the phone at the table: on to the sides' acceptance
            return redirect("members:handover", club_slug=request.club.slug, pk=game.pk)
        return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
    messages.success(
        request,
        gettext("Deal %(number)s saved (%(outcome)s: %(score)s).")
        % {"number": deal.number, "outcome": words, "score": score},
    )
    return redirect("games:deal-new", club_slug=request.club.slug, pk=game.pk)


@require_POST
@club_view("score", table=page_grant)
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


@club_view("score", table=page_grant)
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
    blank = _deal_form(game, dealer=deal.dealer)
    initial = (
        klaverjas_initial(deal, blank)
        if isinstance(blank, KlaverjasDealForm)
        else deal_initial(deal, blank)
    )
    form = _deal_form(game, request.POST or None, initial=initial, dealer=deal.dealer)
    if request.method == "POST" and form.is_valid():
        data, maker_seat = form.to_engine()
        try:
            services.deal_correct(
                deal=deal,
                data=data,
                maker_seat=maker_seat,
                user=_actor(request),
                at_table=_at_table(request),
            )
        except services.GameError as exc:
            form.add_engine_errors(exc.errors)
        else:
            messages.success(
                request,
                gettext("Deal %(number)s corrected; the totals after it are updated.")
                % {"number": number},
            )
            return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
    return render(
        request,
        _form_template(form),
        _context(
            request,
            game,
            form=form,
            number=number,
            editing=deal,
            next_dealer="",
            # A correction made with no network waits in the phone's outbox too.
            offline_game=offline.offline_game(request, game, *_names(game), correcting=deal),
        ),
    )


@club_view("score", table=page_grant)
def deal_delete(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """GET: what deleting the deal would do, with a button to go on; POST: delete it (kept in
    the game's history)."""
    game = _game_or_404(request, pk)
    deal = next((d for d in game.deals.all() if d.number == number), None)
    if deal is None:
        raise Http404("No such deal.")
    if request.method == "POST":
        try:
            services.deal_delete(deal=deal, user=_actor(request), at_table=_at_table(request))
        except services.GameError as exc:
            messages.error(request, translated(exc.errors[0]["message"]))
        else:
            messages.success(
                request,
                gettext("Deal %(number)s deleted; the deals after it moved up.")
                % {"number": number},
            )
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
            messages.error(request, translated(exc.errors[0]["message"]))
        else:
            messages.success(
                request,
                gettext("Game abandoned: it counts nowhere and its fixture can be played again."),
            )
        return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
    return render(request, "games/confirm_abandon.html", _context(request, game))


@require_POST
@club_view("play")
def game_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_or_404(request, pk)
    try:
        game = services.game_confirm(game=game, user=request.user, access=request.club_access)
    except services.GameError as exc:
        messages.error(request, translated(exc.errors[0]["message"]))
    else:
        if game.status == Game.Status.CONFIRMED:
            messages.success(request, gettext("Result confirmed. Thank you!"))
        else:
            messages.success(
                request, gettext("You accepted the result: the other side accepts next.")
            )
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


@club_view("score", table=page_grant)
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
                deals = services.sheet_rows_record(
                    game=game, rows=rows, user=_actor(request), at_table=_at_table(request)
                )
            except services.GameError as exc:
                form.add_row_errors(exc.errors)
            else:
                messages.success(request, f"{len(deals)} rows copied from the paper sheet.")
                return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
    return render(request, "games/sheet_rows.html", _context(request, game, form=form))
