from django.urls import include, path, re_path
from django.views.generic import TemplateView

from calculator.api import score as api
from calculator.api import tables as ledger_api
from calculator.offline import served as offline
from calculator.pages.calculator import picture as hand_picture
from calculator.pages.calculator import views
from calculator.pages.claims import views as claims_views
from calculator.pages.rules import views as rules_views
from calculator.pages.tables import picture as table_picture
from calculator.pages.tables import views as ledger_views
from calculator.pages.trainer import views as trainer_views

urlpatterns = [
    path("", views.calculator, name="calculator"),
    path("rules/", rules_views.rules, name="rules"),
    path("rules/RULES.md", rules_views.reading, name="rules_reading"),
    path("trainer/", trainer_views.trainer, name="trainer"),
    path("claims/", claims_views.claims, name="claims"),
    # the app's page for a page that cannot be fetched offline (public/sw.js keeps it, shows it instead)
    path("no-network/", TemplateView.as_view(template_name="no_network.html"), name="no_network"),
    path("offline/pack.json", offline.pack_manifest, name="offline_manifest"),
    path("offline/<str:version>/<str:name>", offline.pack_part, name="offline_part"),
    # the verdict's picture (issue 32): its URL names all it is drawn from, so it is cached for good
    re_path(
        r"^picture/(?P<version>[0-9a-f]{12})/(?P<lang>zh|en)\.(?P<kind>svg|png)$",
        hand_picture.hand_picture,
        name="picture",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/score", api.api_score, name="api_score"),
    path("api/priority", api.api_priority, name="api_priority"),
    path("api/tables", ledger_api.api_create, name="api_tables"),
    path("api/tables/<str:table_id>", ledger_api.api_table, name="api_table"),
    path("api/tables/<str:table_id>/hands", ledger_api.api_hand, name="api_table_hands"),
    path("api/tables/<str:table_id>/draw", ledger_api.api_draw, name="api_table_draw"),
    path("api/tables/<str:table_id>/leave", ledger_api.api_leave, name="api_table_leave"),
    path("api/tables/<str:table_id>/undo", ledger_api.api_undo, name="api_table_undo"),
    path("api/tables/<str:table_id>/next", ledger_api.api_next, name="api_table_next"),
    path("api/tables/<str:table_id>/redo", ledger_api.api_redo, name="api_table_redo"),
    path("api/tables/<str:table_id>/card", ledger_api.api_card, name="api_table_card"),
    path("tables/", ledger_views.my_tables, name="ledger_mine"),
    path("tables/new/", ledger_views.new_table, name="ledger_new"),
    path("tables/<str:table_id>/", ledger_views.table_view, name="ledger_table"),
    path("tables/<str:table_id>/live/", ledger_views.table_live, name="ledger_live"),
    path("tables/<str:table_id>/export.csv", ledger_views.export_csv, name="ledger_csv"),
    re_path(
        r"^tables/(?P<table_id>[^/]+)/picture/(?P<version>[0-9a-f]{12})/(?P<at>[0-9]+)/(?P<lang>zh|en)\.(?P<kind>svg|png)$",
        table_picture.table_picture,
        name="ledger_picture",
    ),
    path("tables/<str:table_id>/edit/<str:token>/", ledger_views.table_edit, name="ledger_edit"),
    path("tables/<str:table_id>/edit/<str:token>/record/", ledger_views.record, name="ledger_record"),
    path("tables/<str:table_id>/edit/<str:token>/live/", ledger_views.table_edit_live, name="ledger_edit_live"),
    path("tables/<str:table_id>/edit/<str:token>/<str:action>/", ledger_views.table_action, name="ledger_action"),
]

# Error pages in both languages; under /api/ the JSON error object instead (calculator/plumbing/error_pages.py).
handler400 = "calculator.plumbing.error_pages.bad_request"
handler403 = "calculator.plumbing.error_pages.permission_denied"
handler404 = "calculator.plumbing.error_pages.page_not_found"
handler500 = "calculator.plumbing.error_pages.server_error"
