from django.urls import path

from . import table_views, views

app_name = "games"

urlpatterns = [
    path("new/", views.game_new, name="new"),
    path("<int:pk>/", views.game_detail, name="detail"),
    path("<int:pk>/deal/", views.deal_new, name="deal-new"),
    path("<int:pk>/deal/preview/", views.deal_preview, name="deal-preview"),
    path("<int:pk>/deals/<int:number>/edit/", views.deal_edit, name="deal-edit"),
    path("<int:pk>/deals/<int:number>/delete/", views.deal_delete, name="deal-delete"),
    path("<int:pk>/abandon/", views.game_abandon, name="abandon"),
    path("<int:pk>/confirm/", views.game_confirm, name="confirm"),
    path("<int:pk>/paper-sheet/", views.sheet_rows, name="sheet-rows"),
    path("<int:pk>/table-card/", table_views.table_card, name="table-card"),
    path("<int:pk>/table-link/new/", table_views.table_link_new, name="table-link-new"),
    path("<int:pk>/table-link/revoke/", table_views.table_link_revoke, name="table-link-revoke"),
    path(
        "fixtures/<int:fixture_pk>/table-card/",
        table_views.fixture_table_card,
        name="fixture-table-card",
    ),
    path(
        "fixtures/<int:fixture_pk>/table-link/new/",
        table_views.fixture_link_new,
        name="fixture-table-link-new",
    ),
    path(
        "fixtures/<int:fixture_pk>/table-link/revoke/",
        table_views.fixture_link_revoke,
        name="fixture-table-link-revoke",
    ),
]
