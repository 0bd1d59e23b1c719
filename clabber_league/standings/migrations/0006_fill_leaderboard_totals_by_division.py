"""The leaderboards' totals, a row per division, added up from the game lines stored."""

from django.db import migrations

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


class Migration(migrations.Migration):
    dependencies = [("standings", "0005_leaderboard_totals_by_division")]

    operations = [
        migrations.RunSQL(FILL, reverse_sql="DELETE FROM standings_leaderboardtotal"),
    ]
