"""A game's ``updated_at`` (``auto_now``, indexed with the club): the API's
``?updated_since=`` and ordering read it.

Existing games get the latest moment known to have changed them: the newest of their
creation, finish, confirmation and their deals' last change."""

from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery
from django.db.models.functions import Coalesce, Greatest, Now


def backfill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Deal = apps.get_model("games", "Deal")
    last_deal = (
        Deal.objects.filter(game=OuterRef("pk"))
        .values("game")
        .annotate(at=Max("updated_at"))
        .values("at")
    )
    created = models.F("created_at")
    Game.objects.update(
        updated_at=Greatest(
            created,
            Coalesce("finished_at", created),
            Coalesce("confirmed_at", created),
            Coalesce(Subquery(last_deal, output_field=models.DateTimeField()), created),
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_game_acceptances"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="updated_at",
            field=models.DateTimeField(auto_now=True, db_default=Now()),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=True),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["club", "updated_at"], name="game_club_updated_at"),
        ),
    ]
