"""Rows written before the cups kept their texts' templates (0005): the sentences the
server wrote in known English forms get their template and values, so that pages show
them in the reader's language; any other text (a note the secretary typed) keeps no data
and is shown as it is. The English texts (the API's) are not touched."""

from __future__ import annotations

import re

from django.db import migrations

# The templates as the code wrote them when this migration was made (``cups.services``).
RANDOM_TEAMS = (
    "Seeded by a random draw from seed '{seed}' (Python's random.Random(seed).shuffle of "
    "the entrants in order of their team ids): anyone can repeat it."
)
RANDOM_PLAYERS = (
    "Seeded by a random draw from seed '{seed}' (Python's random.Random(seed).shuffle of "
    "the entrants in order of their player ids): anyone can repeat it."
)
FIXED = [
    "Seeded in the order the entrants were given.",
    "Seeded by rating (OpenSkill, mu - 3 sigma; a team's is the mean of its players'), "
    "best first; the unrated last, by name.",
    "Seeded by rating (OpenSkill, mu - 3 sigma), best first; the unrated last, by name.",
]
TOP_PER_DIVISION = (
    "The top {top} of each division go through. Seeds: the places first (every "
    "division's winner before any runner-up), teams of one place by match points, "
    "game difference, points difference, points scored; within a division the "
    "league's own order (its tiebreakers)."
)
TOP_OVERALL = (
    "The top {top} overall go through, in the order match points, game difference, "
    "points difference, points scored (then the place in their own division); the "
    "seeds follow that order."
)
PLACED = "Place {place} in {division}, {points} match points, game difference {difference}"
PLACED_SHARED = (
    "Place {place} (shared) in {division}, {points} match points, game difference {difference}"
)
WALKOVER_ABSENT = "Walkover: {name} did not play."
WALKOVER_ALONE = "Walkover: {name} was the only one to turn up."

OLD_RANDOM = re.compile(
    r"Seeded by a random draw from seed '(?P<seed>[^']*)' \(Python's random\.Random\(seed\)"
    r"\.shuffle of the entrants in order of their (?P<kind>team|player) ids\): anyone can "
    r"repeat it\."
)
OLD_TOP = re.compile(r"The top (?P<top>\d+) (?P<per>of each division|overall) go through")
OLD_PLACED = re.compile(
    r"(?P<place>\d+)(?:st|nd|rd|th)(?P<shared> \(shared\))? in (?P<division>.+), "
    r"(?P<points>-?\d+) match points, game difference (?P<difference>[+-]\d+)"
)
OLD_RATED = re.compile(r"rating (?P<rating>-?\d+\.\d)")
OLD_WALKOVER = [
    (re.compile(r"Walkover: (?P<name>.+) did not play\."), WALKOVER_ABSENT),
    (re.compile(r"Walkover: (?P<name>.+) was the only one to turn up\."), WALKOVER_ALONE),
]


def _note_part(note: str) -> dict:
    if note in FIXED:
        return {"template": note, "params": {}}
    if found := OLD_RANDOM.fullmatch(note):
        template = RANDOM_TEAMS if found["kind"] == "team" else RANDOM_PLAYERS
        return {"template": template, "params": {"seed": found["seed"]}}
    if (found := OLD_TOP.match(note)) and note in (
        TOP_PER_DIVISION.format(top=found["top"]),
        TOP_OVERALL.format(top=found["top"]),
    ):
        per = found["per"] == "overall"
        template = TOP_OVERALL if per else TOP_PER_DIVISION
        return {"template": template, "params": {"top": int(found["top"])}}
    return {"text": note}


def _entrant_part(note: str) -> dict:
    if note == "no rating yet":
        return {"template": note, "params": {}}
    if found := OLD_RATED.fullmatch(note):
        return {"template": "rating {rating}", "params": {"rating": found["rating"]}}
    if found := OLD_PLACED.fullmatch(note):
        template = PLACED_SHARED if found["shared"] else PLACED
        params = {
            "place": int(found["place"]),
            "division": found["division"],
            "points": int(found["points"]),
            "difference": found["difference"],
        }
        return {"template": template, "params": params}
    return {"text": note}


def forwards(apps, schema_editor):
    Stage = apps.get_model("cups", "Stage")
    Entrant = apps.get_model("cups", "Entrant")
    Tie = apps.get_model("cups", "Tie")
    for stage in Stage.objects.exclude(notes=[]).iterator():
        if stage.notes and not stage.notes_data:
            stage.notes_data = [_note_part(n) for n in stage.notes]
            stage.save(update_fields=["notes_data"])
    changed = []
    for entrant in Entrant.objects.exclude(note="").iterator():
        parts = [_entrant_part(p) for p in entrant.note.split("; ")]
        if any("template" in p for p in parts):
            entrant.note_data = parts
            changed.append(entrant)
    Entrant.objects.bulk_update(changed, ["note_data"], batch_size=500)
    for tie in Tie.objects.filter(note__startswith="Walkover: ").iterator():
        for pattern, template in OLD_WALKOVER:
            if found := pattern.fullmatch(tie.note):
                tie.note_data = {"template": template, "params": {"name": found["name"]}}
                tie.save(update_fields=["note_data"])
                break


class Migration(migrations.Migration):
    dependencies = [("cups", "0005_texts_in_the_readers_language")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
