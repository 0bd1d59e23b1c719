"""The deal-entry form: what a scorer taps at the table, turned into the engine's deal JSON.

The form only collects and translates: which fields exist comes from the game's
rule set (sides, seats, meld kinds, whether no-trumps can be bid), and every
check of the rules is the engine's. Its errors come back with the engine's field
names (``points.B``, ``melds.A[0].top``) and are shown beside the field that
produced them.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from clabber_league.core.i18n import translated
from clabber_league.rules import RuleSet
from clabber_league.rules.cards import NO_TRUMPS, SUITS
from clabber_league.rules.dealing import complete_points

from .adapters import MELD_ROWS
from .models import Deal, Game
from .wording import Names, humane_translated

SUIT_LABELS = {
    "clubs": _("♣ Clubs"),
    "diamonds": _("♦ Diamonds"),
    "hearts": _("♥ Hearts"),
    "spades": _("♠ Spades"),
    NO_TRUMPS: _("No trumps"),
}
FOUR_LABELS = {
    "A": _("Four Aces"),
    "K": _("Four Kings"),
    "Q": _("Four Queens"),
    "J": _("Four Jacks"),
    "10": _("Four Tens"),
    "9": _("Four Nines"),
    "8": _("Four Eights"),
    "7": _("Four Sevens"),
}
RUN_NAMES = {
    3: _("Run of 3 (dad)"),
    4: _("Run of 4 (fifty)"),
    5: _("Run of 5"),
    6: _("Run of 6"),
    7: _("Run of 7"),
    8: _("Run of 8"),
}
ONE_SIDE_POINTS = _("Enter the card points of at least one side.")
MELD_NEEDS_PLAYER = _("Say who showed this meld.")
MELD_NEEDS_SUIT = _("Give the suit and top card of the run.")


def meld_kind_choices(ruleset: RuleSet) -> list[tuple[str, str]]:
    """Runs of every length a hand can hold, and the fours the rule set scores."""
    longest = min(ruleset.hand_size, len(ruleset.pack_ranks))
    runs = [(f"run-{n}", RUN_NAMES[n]) for n in range(3, longest + 1)]
    fours = [
        (kind, FOUR_LABELS[kind[5:]])
        for kind in ruleset.meld_table
        if kind.startswith("four-") and ruleset.meld_value(kind) > 0
    ]
    return [("", "—"), *runs, *fours]


def meld_chips(ruleset: RuleSet) -> list[tuple[str, str]]:
    """The melds a player shows most, one tap each: the two shortest runs and the most
    valuable four (the others are under "More")."""
    kinds = [k for k, _label in meld_kind_choices(ruleset) if k]
    runs = [k for k in kinds if k.startswith("run-")][:2]
    fours = sorted(
        (k for k in kinds if k.startswith("four-")), key=ruleset.meld_value, reverse=True
    )[:1]
    return [(k, gettext("Run %(length)s") % {"length": k[4:]}) for k in runs] + [
        (k, gettext("Four %(rank)s") % {"rank": k[5:]}) for k in fours
    ]


def run_tops(ruleset: RuleSet) -> dict[str, list[str]]:
    """For each run length the cards that can top it, likeliest first: a run at the top
    of the suit needs one card missing beside it, one in the middle two."""
    ranks = list(ruleset.pack_ranks)  # highest first
    out = {}
    for kind, _label in meld_kind_choices(ruleset):
        if kind.startswith("run-"):
            out[kind] = ranks[: len(ranks) - int(kind[4:]) + 1]
    return out


class DealForm(forms.Form):
    """One deal. Built for a game: ``DealForm(game=..., ruleset=..., seat_names=...,
    side_names=..., data=...)``. Sides and players are shown by their names everywhere,
    in the labels and in the engine's messages (``games.wording``)."""

    passed = forms.BooleanField(required=False, label=_("Passed out: everybody passed"))
    round = forms.TypedChoiceField(
        choices=[
            (1, _("1st round: took the turned-up suit")),
            (2, _("2nd round: named a suit")),
        ],
        coerce=int,
        required=False,
        widget=forms.RadioSelect,
        label=pgettext_lazy("bidding", "Round"),
    )
    turned = forms.ChoiceField(required=False, label=_("Turned-up suit"), widget=forms.RadioSelect)
    maker_seat = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
        label=_("Who named trump"),
    )
    trump = forms.ChoiceField(required=False, widget=forms.RadioSelect, label=_("Trump"))
    last_trick = forms.ChoiceField(required=False, widget=forms.RadioSelect, label=_("Last trick"))
    bell = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        label=_("Bell (K-Q of trumps)"),
        widget=forms.RadioSelect,
    )
    renege = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, label=_("Reneged")
    )

    def __init__(
        self,
        *args: Any,
        game: Game,
        ruleset: RuleSet,
        seat_names: dict[int, str],
        side_names: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.ruleset = ruleset
        self.sides = list(ruleset.sides)
        self.seat_names = seat_names
        players = {
            side: " & ".join(n for s, n in sorted(seat_names.items()) if self.seat_side(s) == side)
            for side in self.sides
        }
        self.side_names = {s: (side_names or {}).get(s) or players[s] for s in self.sides}
        suits = [(s, SUIT_LABELS[s]) for s in SUITS]
        trumps = suits + ([(NO_TRUMPS, SUIT_LABELS[NO_TRUMPS])] if ruleset.allows_no_trumps else [])
        self.fields["turned"].choices = suits
        self.fields["trump"].choices = trumps
        seat_choices = [(seat, seat_names[seat]) for seat in sorted(seat_names)]
        side_choices = [(s, self.side_names[s]) for s in self.sides]
        self.fields["maker_seat"].choices = seat_choices
        self.fields["bell"].choices = [("", gettext("Nobody")), *seat_choices]
        self.fields["last_trick"].choices = side_choices
        self.fields["renege"].choices = side_choices
        for side in self.sides:
            self.fields[f"points_{side}"] = forms.IntegerField(
                required=False,
                label=gettext("Card points, %(side)s") % {"side": self.side_names[side]},
                widget=forms.NumberInput(
                    attrs={"inputmode": "numeric", "min": 0, "placeholder": gettext("the rest")}
                ),
            )
            self.fields[f"tricks_{side}"] = forms.IntegerField(
                required=False,
                label=gettext("Tricks, %(side)s") % {"side": self.side_names[side]},
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0}),
            )
        kinds = meld_kind_choices(ruleset)
        for i in range(MELD_ROWS):
            self.fields[f"meld_{i}_seat"] = forms.TypedChoiceField(
                coerce=int,
                required=False,
                empty_value=None,
                label=gettext("Meld %(number)s: player") % {"number": i + 1},
                choices=[("", "—"), *seat_choices],
            )
            self.fields[f"meld_{i}_kind"] = forms.ChoiceField(
                required=False,
                label=gettext("Meld %(number)s: meld") % {"number": i + 1},
                choices=kinds,
            )
            self.fields[f"meld_{i}_suit"] = forms.ChoiceField(
                required=False,
                label=gettext("Meld %(number)s: suit of the run") % {"number": i + 1},
                choices=suits,
                widget=forms.RadioSelect,
            )
            self.fields[f"meld_{i}_top"] = forms.ChoiceField(
                required=False,
                label=gettext("Meld %(number)s: top card") % {"number": i + 1},
                choices=[(r, r) for r in ruleset.pack_ranks],
                widget=forms.RadioSelect,
            )
        self.meld_rows: dict[tuple[str, int], int] = {}

    # --- presentation helpers -----------------------------------------------------------

    def seat_side(self, seat: int) -> str:
        return self.sides[seat % len(self.sides)]

    def seat_label(self, seat: int) -> str:
        return self.seat_names[seat]

    def side_fields(self, prefix: str) -> list[forms.BoundField]:
        return [self[f"{prefix}_{side}"] for side in self.sides]

    @property
    def points_fields(self) -> list[forms.BoundField]:
        return self.side_fields("points")

    @property
    def tricks_fields(self) -> list[forms.BoundField]:
        return self.side_fields("tricks")

    @property
    def error_names(self) -> list[str]:
        """Every field that can show an error, for the preview's out-of-band updates."""
        return list(self.fields)

    def side_columns(self) -> list[dict[str, Any]]:
        """Per side, left to right: its name, its players as maker buttons and meld chips,
        its card points, last trick and renege toggles."""
        makers = {w.data["value"]: w for w in self["maker_seat"]}
        last = {w.data["value"]: w for w in self["last_trick"]}
        renege = {w.data["value"]: w for w in self["renege"]}
        columns = []
        for side in self.sides:
            seats = [s for s in sorted(self.seat_names) if self.seat_side(s) == side]
            columns.append(
                {
                    "side": side,
                    "name": self.side_names[side],
                    "players": " & ".join(self.seat_names[s] for s in seats),
                    "makers": [makers[s] for s in seats],
                    "seats": [(s, self.seat_names[s]) for s in seats],
                    "points": self[f"points_{side}"],
                    "last": last[side],
                    "renege": renege[side],
                }
            )
        return columns

    def chip_players(self) -> list[tuple[int, str, str]]:
        """(seat, name, side name) of every player, side by side, for the meld chips."""
        return [
            (seat, name, self.side_names[side])
            for column in self.side_columns()
            for side in [column["side"]]
            for seat, name in column["seats"]
        ]

    @property
    def chips(self) -> list[tuple[str, str]]:
        return meld_chips(self.ruleset)

    @property
    def run_tops_attr(self) -> str:
        """``run-3:A,K,Q,J;run-4:A,K,Q``: the top cards each run can have, likeliest first
        (for the page's script, which offers only those and picks the first)."""
        return ";".join(f"{k}:{','.join(v)}" for k, v in run_tops(self.ruleset).items())

    def meld_row_fields(self) -> list[dict[str, Any]]:
        rows = []
        names = dict(meld_kind_choices(self.ruleset))
        for i in range(MELD_ROWS):
            bound = {part: self[f"meld_{i}_{part}"] for part in ("seat", "kind", "suit", "top")}
            seat, kind = bound["seat"].value(), bound["kind"].value()
            filled = seat not in (None, "") or kind not in (None, "")
            title = ""
            if filled:
                who = self.seat_names.get(int(seat)) if str(seat).isdigit() else None
                title = " · ".join(str(x) for x in (who, names.get(kind or "")) if x)
            rows.append({"index": i, "fields": bound, "filled": filled, "title": title})
        return rows

    def _blank(self, name: str) -> bool:
        return self[name].value() in (None, "", [], ())

    def live_errors(self, name: str) -> list[str]:
        """The errors the live preview shows beside field ``name``: none yet for a field
        still empty (the scorer is filling the deal in; Save shows them all)."""
        return [] if self._blank(name) else list(self.errors.get(name, []))

    @property
    def live_error_map(self) -> dict[str, list[str]]:
        return {name: self.live_errors(name) for name in self.fields}

    @property
    def still_to_fill(self) -> list[str]:
        """The labels of the empty fields the deal still needs (the live preview's hint)."""
        return [str(self[n].label) for n in self.errors if n != "__all__" and self._blank(n)]

    @property
    def live_summary(self) -> list[dict[str, str]]:
        """The errors on what the scorer has filled in, for the live preview."""
        return [
            e
            for e in self.error_summary()
            if not e["id"] or not self._blank(e["id"].removeprefix("id_").removesuffix("_0"))
        ]

    def error_summary(self) -> list[dict[str, str]]:
        """Every error with the label of its field and the id to jump to, page order."""
        out = [{"id": "", "label": "", "message": str(e)} for e in self.non_field_errors()]
        for name in self.fields:
            for message in self.errors.get(name, []):
                bound = self[name]
                radios = isinstance(bound.field.widget, forms.RadioSelect)  # and checkboxes
                anchor = f"id_{name}_0" if radios else f"id_{name}"
                out.append({"id": anchor, "label": str(bound.label), "message": message})
        return out

    # --- to the engine ------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("passed"):
            return cleaned
        points = {s: cleaned.get(f"points_{s}") for s in self.sides}
        given = {s: p for s, p in points.items() if p is not None}
        if not given and not cleaned.get("renege"):
            # A renege stops play: no card points are needed.
            self.add_error(f"points_{self.sides[0]}", ONE_SIDE_POINTS)
        for i in range(MELD_ROWS):
            kind = cleaned.get(f"meld_{i}_kind")
            if not kind:
                continue
            if cleaned.get(f"meld_{i}_seat") is None:
                self.add_error(f"meld_{i}_seat", MELD_NEEDS_PLAYER)
            if kind.startswith("run-") and not (
                cleaned.get(f"meld_{i}_suit") and cleaned.get(f"meld_{i}_top")
            ):
                self.add_error(f"meld_{i}_suit", MELD_NEEDS_SUIT)
        return cleaned

    def derived_points(self, cleaned: dict[str, Any]) -> dict[str, int]:
        """One side's points may be left out where every card is played: the engine's pack
        total gives the other."""
        points = {s: cleaned.get(f"points_{s}") for s in self.sides}
        return complete_points(self.ruleset, points, trump=cleaned.get("trump"))

    def to_engine(self) -> tuple[dict[str, Any], int | None]:
        """The deal JSON and the seat of the player who named trump. Call after is_valid()."""
        c = self.cleaned_data
        if c.get("passed"):
            return {"passed": True}, None
        maker_seat = c.get("maker_seat")
        data: dict[str, Any] = {}
        if maker_seat is not None:
            data["maker"] = self.seat_side(maker_seat)
        round_ = c.get("round")
        trump = c.get("trump") or (c.get("turned") if round_ == 1 else None)
        if trump:
            data["trump"] = trump
        if round_:
            bidding: dict[str, Any] = {"round": round_}
            if c.get("turned"):
                bidding["turned"] = c["turned"]
            data["bidding"] = bidding
        stopped = bool(c.get("renege"))
        if not (stopped and all(c.get(f"points_{s}") is None for s in self.sides)):
            data["points"] = self.derived_points(c)
        if c.get("last_trick"):
            data["last_trick"] = c["last_trick"]
        tricks = {s: c[f"tricks_{s}"] for s in self.sides if c.get(f"tricks_{s}") is not None}
        if tricks:
            data["tricks"] = tricks
        melds: dict[str, list[dict[str, Any]]] = {}
        self.meld_rows = {}
        self.meld_names: dict[tuple[str, int], str] = {}
        kind_names = dict(meld_kind_choices(self.ruleset))
        for i in range(MELD_ROWS):
            kind, seat = c.get(f"meld_{i}_kind"), c.get(f"meld_{i}_seat")
            if not kind or seat is None:
                continue
            side = self.seat_side(seat)
            if kind.startswith("run-"):
                meld = {
                    "kind": "sequence",
                    "suit": c.get(f"meld_{i}_suit"),
                    "top": c.get(f"meld_{i}_top"),
                    "length": int(kind[4:]),
                }
            else:
                meld = {"kind": "four", "rank": kind[5:]}
            meld["player"] = seat
            key = (side, len(melds.setdefault(side, [])))
            self.meld_rows[key] = i
            self.meld_names[key] = gettext("%(player)s's %(meld)s") % {
                "player": self.seat_names[seat],
                "meld": str(kind_names[kind]).lower(),
            }
            melds[side].append(meld)
        if melds:
            data["melds"] = melds
        if c.get("bell") is not None:
            data["bell"] = self.seat_side(c["bell"])
        if c.get("renege"):
            data["renege"] = list(c["renege"])
        return data, maker_seat

    # --- engine errors back onto the fields ----------------------------------------------

    def names(self) -> Names:
        return Names(
            sides=self.side_names,
            seats=self.seat_names,
            melds=getattr(self, "meld_names", {}),
        )

    def add_engine_errors(self, errors: list[dict[str, str]]) -> None:
        """The engine's errors beside their fields, in the table's words (no ``melds.B[0]``,
        no "side A" or "player 3": ``games.wording``)."""
        names = self.names()
        for error in errors:
            message = humane_translated(error["message"], names)
            self.add_error(self.field_for(error["field"]), message)

    def field_for(self, path: str) -> str | None:
        """The form field that an engine error path points at (None: the whole deal)."""
        head, _, rest = path.partition(".")
        if head in ("points", "tricks") and rest in self.sides:
            return f"{head}_{rest}"
        if head == "bidding":
            return "round" if rest == "round" else "turned"
        if head in ("maker", "maker_seat"):
            return "maker_seat"
        if head in ("trump", "last_trick", "bell", "passed"):
            return head
        if head.startswith("renege"):
            return "renege"
        if head == "melds" and rest:
            side, _, tail = rest.partition("[")
            index_text, _, part = tail.partition("]")
            if index_text.isdigit():
                row = self.meld_rows.get((side, int(index_text)))
                if row is not None:
                    part = part.lstrip(".")
                    name = {
                        "top": "top",
                        "suit": "suit",
                        "length": "kind",
                        "rank": "kind",
                        "kind": "kind",
                        "player": "seat",
                    }.get(part, "kind")
                    return f"meld_{row}_{name}"
        if head in ("points", "tricks"):
            return f"{head}_{self.sides[0]}"
        return None


QUICK_ROWS = 12
QUICK_MARKS = [
    ("made", pgettext_lazy("sheet mark", "made")),
    ("set", pgettext_lazy("sheet mark", "XX (set)")),
    ("renege", pgettext_lazy("sheet mark", "renege")),
    ("passed", pgettext_lazy("sheet mark", "passed")),
]
QUICK_ROW_INCOMPLETE = _("Give the maker, the mark and every side's number.")


class SheetRowsForm(forms.Form):
    """Copying an old paper sheet: per row the maker, the mark and each side's number."""

    def __init__(
        self,
        *args: Any,
        ruleset: RuleSet,
        side_names: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.sides = list(ruleset.sides)
        names = {
            s: (side_names or {}).get(s) or gettext("Side %(side)s") % {"side": s}
            for s in self.sides
        }
        for i in range(QUICK_ROWS):
            # Each input sits in a table cell under its column's heading; the aria-label
            # says the row and column for a screen reader.
            self.fields[f"row_{i}_maker"] = forms.ChoiceField(
                required=False,
                label=_("Maker"),
                choices=[("", "—")] + [(s, names[s]) for s in self.sides],
                widget=forms.Select(
                    attrs={"aria-label": gettext("Row %(row)s: who made trump") % {"row": i + 1}}
                ),
            )
            self.fields[f"row_{i}_mark"] = forms.ChoiceField(
                required=False,
                label=pgettext_lazy("sheet column", "Mark"),
                choices=[("", "—"), *QUICK_MARKS],
                widget=forms.Select(
                    attrs={"aria-label": gettext("Row %(row)s: mark") % {"row": i + 1}}
                ),
            )
            for side in self.sides:
                self.fields[f"row_{i}_{side}"] = forms.IntegerField(
                    required=False,
                    label=names[side],
                    widget=forms.NumberInput(
                        attrs={
                            "inputmode": "numeric",
                            "min": 0,
                            "aria-label": gettext("Row %(row)s: %(side)s")
                            % {"row": i + 1, "side": names[side]},
                        }
                    ),
                )
        self.row_index: list[int] = []

    def table(self) -> list[dict[str, Any]]:
        return [
            {
                "index": i,
                "maker": self[f"row_{i}_maker"],
                "mark": self[f"row_{i}_mark"],
                "numbers": [self[f"row_{i}_{s}"] for s in self.sides],
            }
            for i in range(QUICK_ROWS)
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        for i in range(QUICK_ROWS):
            mark = cleaned.get(f"row_{i}_mark")
            numbers = [cleaned.get(f"row_{i}_{s}") for s in self.sides]
            maker = cleaned.get(f"row_{i}_maker")
            if not mark and not maker and all(n is None for n in numbers):
                continue
            if mark != "passed" and (not mark or not maker or any(n is None for n in numbers)):
                self.add_error(f"row_{i}_mark", QUICK_ROW_INCOMPLETE)
        return cleaned

    def rows(self) -> list[dict[str, Any]]:
        """The filled rows as the engine's sheet rows (call after is_valid())."""
        c = self.cleaned_data
        out: list[dict[str, Any]] = []
        self.row_index = []
        for i in range(QUICK_ROWS):
            mark = c.get(f"row_{i}_mark")
            if not mark:
                continue
            if mark == "passed":
                out.append({"passed": True})
            else:
                out.append(
                    {
                        "sheet": {s: c[f"row_{i}_{s}"] for s in self.sides},
                        "maker": c[f"row_{i}_maker"],
                        "mark": mark,
                    }
                )
            self.row_index.append(i)
        return out

    def add_row_errors(self, errors: list[dict[str, str]]) -> None:
        """``rows[k].sheet.B`` -> the B field of the k-th filled row."""
        for error in errors:
            head, _, rest = error["field"].partition(".")
            if (
                head.startswith("rows[")
                and head[5:-1].isdigit()
                and int(head[5:-1]) < len(self.row_index)
            ):
                i = self.row_index[int(head[5:-1])]
                if rest.startswith("sheet.") and rest[6:] in self.sides:
                    self.add_error(f"row_{i}_{rest[6:]}", translated(error["message"]))
                elif rest == "maker":
                    self.add_error(f"row_{i}_maker", translated(error["message"]))
                else:
                    self.add_error(f"row_{i}_mark", translated(error["message"]))
            else:
                self.add_error(None, translated(error["message"]))


# --- klaverjas (KLAVERJAS.md 7) ----------------------------------------------------------
# The deal form of a klaverjas table (KLAVERJAS.md 7): what the tally sheet holds, per deal.
#
# A klaverjas scorer writes per deal who played, trump, each pair's points **with** the last
# trick (the two add up to 162), each pair's roem, and marks "nat" and "pit". This form asks
# for exactly that: the maker, trump, one pair's points (the other gets the rest of 162),
# which pair took the last trick, roem as a total per pair or as claims per trick (a chip per
# kind, then the trick's number), "all tricks" (pit) and a renege. It fills the engine's
# klaverjas deal (``points_with_last``, ``roem`` as numbers or claims, ``tricks``) and every
# check is the engine's; its errors come back beside the field and name the trick.

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
