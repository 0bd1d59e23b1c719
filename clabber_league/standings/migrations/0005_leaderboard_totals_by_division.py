"""The leaderboards' totals a row per division instead of per season, so that deleting a
division deletes its rows with its game lines and a division's rebuild touches only its
own: emptied, keyed by division, and added up again from the game lines."""

import django.db.models.deletion
from django.db import migrations, models

COLUMNS = (
    "club_id, season_id, division_id, board, key, player_1_id, player_2_id, player_3_id, "
    "games, won, tied, lost, deals, points, calls, calls_made, calls_set, melds, meld_deals, "
    "reneges, best_meld"
)
SUMS = (
    "SUM(won), SUM(tied), SUM(lost), SUM(deals), SUM(points), SUM(calls), SUM(calls_made), "
    "SUM(calls_set), SUM(melds), SUM(meld_deals), SUM(reneges), MAX(best_meld)"
)
FILL = (
    f"INSERT INTO standings_leaderboardtotal ({COLUMNS}) "
    "SELECT club_id, season_id, division_id, 'players', CAST(player_id AS TEXT), player_id, "
    f"NULL, NULL, COUNT(*), {SUMS} FROM standings_playergamestat "
    "GROUP BY club_id, season_id, division_id, player_id "
    "UNION ALL SELECT club_id, season_id, division_id, 'partnerships', key, player_1_id, "
    f"player_2_id, player_3_id, COUNT(*), {SUMS} FROM standings_partnershipgamestat "
    "GROUP BY club_id, season_id, division_id, key, player_1_id, player_2_id, player_3_id"
)
EMPTY = "DELETE FROM standings_leaderboardtotal"


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0003_venue"),
        ("standings", "0004_fill_leaderboard_totals"),
    ]

    operations = [
        migrations.RunSQL(EMPTY, reverse_sql=EMPTY),
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
        migrations.RunSQL(FILL, reverse_sql=EMPTY),
    ]
