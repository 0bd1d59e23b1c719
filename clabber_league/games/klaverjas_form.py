"""The deal form of a klaverjas table (KLAVERJAS.md 7): what the tally sheet holds, per deal.

A klaverjas scorer writes per deal who played, trump, each pair's points **with** the last
trick (the two add up to 162), each pair's roem, and marks "nat" and "pit". This form asks
for exactly that: the maker, trump, one pair's points (the other gets the rest of 162),
which pair took the last trick, roem as a total per pair or as claims per trick (a chip per
kind, then the trick's number), "all tricks" (pit) and a renege. It fills the engine's
klaverjas deal (``points_with_last``, ``roem`` as numbers or claims, ``tricks``) and every
check is the engine's; its errors come back beside the field and name the trick.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clabber_league.rules import RuleSet
from clabber_league.rules.cards import SUITS

from .forms import FOUR_LABELS, SUIT_LABELS, DealForm
from .models import Deal, Game

CLAIM_ROWS = 8
TOTAL_WITH_LAST = 162
ROEM_CHIPS = [
    ("run-3", _("Run of 3")),
    ("run-4", _("Run of 4")),
    ("stuk", _("Stuk")),
    ("four", _("Four")),
]
ONE_PAIR_POINTS = _("Enter the points of at least one pair (with the last trick: 162 together).")
CLAIM_NEEDS_TRICK = _("Say in which trick (1 to 8) this roem lay.")
CLAIM_NEEDS_RANK = _("Say which four: Aces, Kings ... Sevens.")
TOTAL_AND_CLAIMS = _("Give this pair's roem as a total or as claims per trick, not both.")
POINTS_TOO_HIGH = _("Points with the last trick are at most 162.")


class KlaverjasDealForm(DealForm):
    """One klaverjas deal. Reuses the Clabber form's maker, trump, last trick and renege
    fields (and its error summary and live preview); adds per pair the points with the last
    trick, roem, pit, and the claim rows."""

    def __init__(
        self,
        *args: Any,
        game: Game,
        ruleset: RuleSet,
        seat_names: dict[int, str],
        side_names: dict[str, str] | None = None,
        dealer: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            *args,
            game=game,
            ruleset=ruleset,
            seat_names=seat_names,
            side_names=side_names,
            **kwargs,
        )
        for name in list(self.fields):
            if name.startswith("meld_") or name in ("passed", "round", "turned", "bell"):
                del self.fields[name]
        self.fields["trump"].choices = [(s, SUIT_LABELS[s]) for s in SUITS]
        self.fields["dealer"] = forms.IntegerField(
            required=False, widget=forms.HiddenInput, initial=dealer
        )
        if dealer is not None and ruleset.maker_left_of_dealer and not self.is_bound:
            # Amsterdams: the player left of the dealer must play; one tap saved.
            self.initial.setdefault("maker_seat", (dealer + 1) % max(len(seat_names), 1))
        side_choices = [(s, self.side_names[s]) for s in self.sides]
        for side in self.sides:
            name = self.side_names[side]
            self.fields[f"points_{side}"] = forms.IntegerField(
                required=False,
                min_value=0,
                label=gettext("Points with the last trick, %(side)s") % {"side": name},
                widget=forms.NumberInput(
                    attrs={"inputmode": "numeric", "min": 0, "placeholder": gettext("the rest")}
                ),
            )
            self.fields[f"roem_{side}"] = forms.IntegerField(
                required=False,
                min_value=0,
                label=gettext("Roem, %(side)s") % {"side": name},
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "step": 10}),
            )
            self.fields[f"pit_{side}"] = forms.BooleanField(
                required=False, label=gettext("All tricks (pit), %(side)s") % {"side": name}
            )
        kinds = [("", "—"), ("run-3", _("Run of 3")), ("run-4", _("Run of 4")), ("stuk", _("Stuk"))]
        kinds += [
            (f"four-{rank}", FOUR_LABELS[rank])
            for rank in ruleset.pack_ranks
            if ruleset.roem_table.get(f"four-{rank}", 0) > 0
        ]
        for i in range(CLAIM_ROWS):
            number = {"number": i + 1}
            self.fields[f"claim_{i}_side"] = forms.ChoiceField(
                required=False,
                label=gettext("Roem %(number)s: pair") % number,
                choices=[("", "—"), *side_choices],
            )
            self.fields[f"claim_{i}_kind"] = forms.ChoiceField(
                required=False, label=gettext("Roem %(number)s: kind") % number, choices=kinds
            )
            self.fields[f"claim_{i}_trick"] = forms.TypedChoiceField(
                required=False,
                coerce=int,
                empty_value=None,
                label=gettext("Roem %(number)s: trick") % number,
                choices=[(t, str(t)) for t in range(1, 9)],
                widget=forms.RadioSelect,
            )
        self.claim_rows: dict[tuple[str, int], int] = {}

    # --- presentation --------------------------------------------------------------------

    def side_columns(self) -> list[dict[str, Any]]:
        columns = super().side_columns()
        for column in columns:
            side = column["side"]
            column["roem"] = self[f"roem_{side}"]
            column["pit"] = self[f"pit_{side}"]
        return columns

    @property
    def roem_chips(self) -> list[tuple[str, str]]:
        return ROEM_CHIPS

    def claim_row_fields(self) -> list[dict[str, Any]]:
        rows = []
        for i in range(CLAIM_ROWS):
            bound = {part: self[f"claim_{i}_{part}"] for part in ("side", "kind", "trick")}
            filled = bound["side"].value() not in (None, "") or bound["kind"].value() not in (
                None,
                "",
            )
            rows.append({"index": i, "fields": bound, "filled": filled})
        return rows

    @property
    def tricks_open(self) -> bool:
        return any(self[f"tricks_{s}"].errors for s in self.sides)

    # --- to the engine -------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        cleaned = forms.Form.clean(self)
        points = {s: cleaned.get(f"points_{s}") for s in self.sides}
        stopped_or_pit = cleaned.get("renege") or any(cleaned.get(f"pit_{s}") for s in self.sides)
        if all(p is None for p in points.values()) and not stopped_or_pit:
            self.add_error(f"points_{self.sides[0]}", ONE_PAIR_POINTS)
        for side, value in points.items():
            if value is not None and value > TOTAL_WITH_LAST:
                self.add_error(f"points_{side}", POINTS_TOO_HIGH)
        claimed = set()
        for i in range(CLAIM_ROWS):
            kind, side = cleaned.get(f"claim_{i}_kind"), cleaned.get(f"claim_{i}_side")
            if not kind and not side:
                continue
            if not kind or kind == "four":
                self.add_error(f"claim_{i}_kind", CLAIM_NEEDS_RANK)
                continue
            if cleaned.get(f"claim_{i}_trick") is None:
                self.add_error(f"claim_{i}_trick", CLAIM_NEEDS_TRICK)
            if side:
                claimed.add(side)
        for side in claimed:
            if cleaned.get(f"roem_{side}") not in (None, 0):
                self.add_error(f"roem_{side}", TOTAL_AND_CLAIMS)
        return cleaned

    def to_engine(self) -> tuple[dict[str, Any], int | None]:
        c = self.cleaned_data
        data: dict[str, Any] = {}
        maker_seat = c.get("maker_seat")
        if maker_seat is not None:
            data["maker"] = self.seat_side(maker_seat)
        if c.get("trump"):
            data["trump"] = c["trump"]
        pit = next((s for s in self.sides if c.get(f"pit_{s}")), None)
        points = {s: c.get(f"points_{s}") for s in self.sides}
        if pit is not None and all(p is None for p in points.values()):
            points = {s: TOTAL_WITH_LAST if s == pit else 0 for s in self.sides}
        given = {s: p for s, p in points.items() if p is not None}
        if len(given) == len(self.sides) - 1:
            (missing,) = (s for s in self.sides if s not in given)
            given[missing] = TOTAL_WITH_LAST - sum(given.values())
        if given and not (c.get("renege") and len(given) < len(self.sides)):
            data["points_with_last"] = given
        last = c.get("last_trick") or pit
        if last:
            data["last_trick"] = last
        if pit is not None:
            data["tricks"] = {s: 8 if s == pit else 0 for s in self.sides}
        else:
            tricks = {s: c[f"tricks_{s}"] for s in self.sides if c.get(f"tricks_{s}") is not None}
            if len(tricks) == len(self.sides) - 1:
                (missing,) = (s for s in self.sides if s not in tricks)
                tricks[missing] = 8 - sum(tricks.values())
            if tricks:
                data["tricks"] = tricks
        roem: dict[str, Any] = {}
        self.claim_rows = {}
        for i in range(CLAIM_ROWS):
            kind, side = c.get(f"claim_{i}_kind"), c.get(f"claim_{i}_side")
            if not kind or not side:
                continue
            claims = roem.setdefault(side, [])
            self.claim_rows[(side, len(claims))] = i
            claims.append({"trick": c.get(f"claim_{i}_trick"), "kind": kind})
        for side in self.sides:
            if side not in roem and c.get(f"roem_{side}"):
                roem[side] = c[f"roem_{side}"]
        if roem:
            data["roem"] = roem
        if c.get("renege"):
            data["renege"] = list(c["renege"])
        if c.get("dealer") is not None:
            data["dealer"] = c["dealer"]
        return data, maker_seat

    def field_for(self, path: str) -> str | None:
        head, _, rest = path.partition(".")
        if head == "points_with_last":
            head = "points"
        if head == "dealer":
            return "maker_seat"
        if head == "roem" and rest:
            side, _, tail = rest.partition("[")
            if not tail:
                return f"roem_{side}" if side in self.sides else None
            index_text, _, part = tail.partition("]")
            row = self.claim_rows.get((side, int(index_text))) if index_text.isdigit() else None
            if row is None:
                return f"roem_{side}" if side in self.sides else None
            return f"claim_{row}_{'trick' if part.lstrip('.') == 'trick' else 'kind'}"
        if head == "tricks" and not rest:
            return f"tricks_{self.sides[0]}"
        return super().field_for(head + ("." + rest if rest else ""))


def klaverjas_initial(deal: Deal, form: KlaverjasDealForm) -> dict[str, Any]:
    """The form's fields for a recorded klaverjas deal (for corrections)."""
    d = deal.data
    initial: dict[str, Any] = {
        "maker_seat": deal.maker_seat,
        "trump": d.get("trump"),
        "last_trick": d.get("last_trick"),
        "renege": list(d.get("renege") or []),
        "dealer": d.get("dealer", deal.dealer),
    }
    with_last = dict(d.get("points_with_last") or {})
    if not with_last and d.get("points"):
        with_last = {s: v + (10 if d.get("last_trick") == s else 0) for s, v in d["points"].items()}
    tricks = d.get("tricks") or {}
    pit = next((s for s, n in tricks.items() if n == 8), None)
    if pit is not None:
        initial[f"pit_{pit}"] = True
    else:
        for side, n in tricks.items():
            initial[f"tricks_{side}"] = n
    if with_last and pit is None:
        first = form.sides[0]
        initial[f"points_{first}"] = with_last.get(first)
    row = 0
    for side, value in (d.get("roem") or {}).items():
        if isinstance(value, list):
            for claim in value:
                if row >= CLAIM_ROWS:
                    break
                kind = claim.get("kind")
                if kind == "four":
                    kind = f"four-{claim.get('rank')}"
                elif kind == "run":
                    kind = f"run-{claim.get('length')}"
                initial[f"claim_{row}_side"] = side
                initial[f"claim_{row}_kind"] = kind
                initial[f"claim_{row}_trick"] = claim.get("trick")
                row += 1
        else:
            initial[f"roem_{side}"] = value
    return initial
