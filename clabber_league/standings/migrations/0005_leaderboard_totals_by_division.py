"""The leaderboards' totals a row per division instead of per season, so that a
division's rebuild touches only its own rows: emptied and keyed by division (0006 adds
them up again from the game lines, in a transaction of its own: PostgreSQL cannot create
this migration's indexes after rows were inserted in the same transaction)."""

import django.db.models.deletion
from django.db import migrations, models

EMPTY = "DELETE FROM standings_leaderboardtotal"


def empty(apps, schema_editor):
    """TRUNCATE on PostgreSQL: a DELETE leaves foreign-key trigger events pending, and the
    table could not be altered in the same transaction."""
    truncate = schema_editor.connection.vendor == "postgresql"
    schema_editor.execute("TRUNCATE standings_leaderboardtotal" if truncate else EMPTY)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0003_venue"),
        ("standings", "0004_fill_leaderboard_totals"),
    ]

    operations = [
        migrations.RunPython(empty, reverse_code=empty),
        migrations.RemoveConstraint(model_name="leaderboardtotal", name="leaderboard_total_once"),
        migrations.AddField(
            model_name="leaderboardtotal",
            name="division",
            # The table is empty here: the default is never written to a row.
            field=models.ForeignKey(
                default=0,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="leagues.division",
            ),
            preserve_default=False,
        ),
        migrations.AddConstraint(
            model_name="leaderboardtotal",
            constraint=models.UniqueConstraint(
                fields=("division", "board", "key"), name="leaderboard_total_once_a_division"
            ),
        ),
    ]
