"""The rules engine's JSON (RULES.md section 6) as typed serializers, for the schema.

They document what the engine reads and answers so that a generated client has a class
for each; the engine itself still checks every deal (a serializer here never rejects what
the engine accepts). The calculator, the games API and the standings use them alike.
"""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clabber_league.rules.cards import NO_TRUMPS, SUITS
from clabber_league.rules.deal import Outcome

OUTCOMES = [o.value for o in Outcome]
#: The sides of a game (``SideEnum`` in the schema); a two-sided game has A and B.
SIDES = ["A", "B", "C"]
#: A trump: a suit or no trumps (``TrumpEnum``).
TRUMPS = [*SUITS, NO_TRUMPS]
#: Who won a game (``WinnerEnum``): a side or a tie.
WINNERS = [*SIDES, "tie"]


class PerSideSerializer(serializers.Serializer):
    """A number per side: ``A`` and ``B``, and ``C`` in a three-sided game."""

    A = serializers.IntegerField()
    B = serializers.IntegerField()
    C = serializers.IntegerField(required=False)


@extend_schema_field(PerSideSerializer)
class PerSideField(serializers.DictField):
    """A number per side (``A``, ``B``, and ``C`` in a three-sided game): ``PerSide``."""

    child = serializers.IntegerField()


class PerSideInputSerializer(serializers.Serializer):
    """A number per side, each optional (one side's card points give the other's)."""

    A = serializers.IntegerField(required=False)
    B = serializers.IntegerField(required=False)
    C = serializers.IntegerField(required=False)


class BiddingSerializer(serializers.Serializer):
    round = serializers.IntegerField(
        required=False, help_text="1: the turned card's suit was taken; 2: another suit named."
    )
    turned = serializers.CharField(required=False, help_text="The suit of the turned card.")


class MeldInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["sequence", "four"])
    suit = serializers.CharField(required=False, help_text="A sequence's suit.")
    top = serializers.CharField(required=False, help_text="A sequence's top card: A K Q J 10 9 8.")
    length = serializers.IntegerField(required=False, help_text="A sequence's length, 3 or more.")
    rank = serializers.CharField(required=False, help_text="The rank of a four of a kind.")
    player = serializers.IntegerField(required=False, help_text="Seat of the player who showed it.")


class MeldsPerSideSerializer(serializers.Serializer):
    A = MeldInputSerializer(many=True, required=False)
    B = MeldInputSerializer(many=True, required=False)
    C = MeldInputSerializer(many=True, required=False)


class DealInputSerializer(serializers.Serializer):
    """A deal in the rules calculator's JSON (RULES.md section 6) without ``ruleset`` and
    ``options``, which are the game's. Documents the body; the rules engine checks it."""

    passed = serializers.BooleanField(
        required=False, allow_null=True, help_text="Nobody named trump."
    )
    maker = serializers.ChoiceField(
        choices=SIDES,
        required=False,
        allow_null=True,
        help_text="The side that named trump: A, B or C. Needed unless the deal was passed "
        "out (``passed``) or every side reneged.",
    )
    maker_seat = serializers.IntegerField(
        required=False, allow_null=True, help_text="Seat of the player who named trump."
    )
    trump = serializers.ChoiceField(
        choices=TRUMPS,
        required=False,
        allow_null=True,
        help_text="clubs, diamonds, hearts, spades or none (no trumps).",
    )
    bidding = BiddingSerializer(required=False, allow_null=True)
    points = PerSideInputSerializer(
        required=False, help_text="Card points taken in tricks, per side (one side is enough)."
    )
    last_trick = serializers.CharField(
        required=False, allow_null=True, help_text="The side that took it."
    )
    tricks = PerSideInputSerializer(required=False, help_text="Tricks taken, per side.")
    melds = MeldsPerSideSerializer(required=False, help_text="Melds shown, per side.")
    bell = serializers.CharField(
        required=False, allow_null=True, help_text="The side that held the bella."
    )
    renege = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="The sides that reneged."
    )


class DealResultSerializer(serializers.Serializer):
    """The engine's answer for one deal."""

    outcome = serializers.ChoiceField(choices=OUTCOMES)
    score = PerSideSerializer(help_text="What the deal puts on the sheet.")
    totals = PerSideSerializer(help_text="Card points and melds before the outcome applied.")
    meld_winner = serializers.CharField(allow_null=True, help_text="The side whose melds count.")
    meld_points = PerSideSerializer()


class ScoreDealSerializer(DealInputSerializer):
    ruleset = serializers.CharField(help_text='A rule set\'s slug ("clabber", "klaberjass"...).')
    options = serializers.DictField(
        required=False, help_text="House-rule options over the rule set's (see /rules/)."
    )
    pot = serializers.IntegerField(
        required=False, min_value=0, help_text="A pot left hanging by earlier tied deals."
    )


class ScoreGameSerializer(serializers.Serializer):
    ruleset = serializers.CharField(help_text='A rule set\'s slug ("clabber", "klaberjass"...).')
    options = serializers.DictField(required=False, help_text="House-rule options.")
    deals = DealInputSerializer(many=True, help_text="The deals in order.")


class ScoreGameAnswerSerializer(serializers.Serializer):
    deals = DealResultSerializer(many=True)
    running = PerSideSerializer(many=True, help_text="The running totals after each deal.")
    scores = PerSideSerializer(help_text="The game's totals.")
    finished = serializers.BooleanField(help_text="A side reached the target.")
    winner = serializers.ChoiceField(
        choices=WINNERS, allow_null=True, help_text='"A", "B", "C", "tie" or null.'
    )
