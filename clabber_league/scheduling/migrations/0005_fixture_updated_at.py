"""A fixture's ``updated_at`` (``auto_now``, indexed with the club): the API's
``?updated_since=`` reads it. Existing fixtures get the moment of the migration (when each
last changed was never kept): a client syncing with ``updated_since`` reads them once more.
A row inserted by hand-written SQL (``COPY``, ``bulk.py``) gets the database's clock."""

from django.db import migrations, models
from django.db.models.functions import Now


class Migration(migrations.Migration):
    dependencies = [
        ("scheduling", "0004_venue_moved_to_leagues"),
    ]

    operations = [
        migrations.AddField(
            model_name="fixture",
            name="updated_at",
            field=models.DateTimeField(auto_now=True, db_default=Now()),
        ),
        migrations.AddIndex(
            model_name="fixture",
            index=models.Index(fields=["club", "updated_at"], name="fixture_club_updated_at"),
        ),
    ]
