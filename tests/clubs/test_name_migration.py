"""The migration that makes player names unique in any case numbers the case twins a club
already has (so it can be applied to real data), and an admin merges them afterwards."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("clubs", "0002_player_name_public")]
AFTER = [("clubs", "0003_player_name_any_case_and_merges")]


@pytest.mark.django_db(transaction=True)
def test_players_whose_names_differ_only_in_case_are_numbered():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    club = old.get_model("clubs", "Club").objects.create(name="Old club", slug="old-club")
    other = old.get_model("clubs", "Club").objects.create(name="Other", slug="other")
    player = old.get_model("clubs", "Player")
    for name in ("Tom Smith", "tom smith", "TOM SMITH", "tom smith (2)", "Mary"):
        player.objects.create(club=club, name=name)
    player.objects.create(club=other, name="tom smith")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("clubs", "Player")
    names = sorted(new.objects.filter(club__slug="old-club").values_list("name", flat=True))
    assert names == ["Mary", "TOM SMITH (4)", "Tom Smith", "tom smith (2)", "tom smith (3)"]
    assert list(new.objects.filter(club__slug="other").values_list("name", flat=True)) == [
        "tom smith"
    ]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
