"""The offline pack on the server's side (issue 22): what the pages offer, and the pack's own files.

- `GET /offline/pack.json`: the built pack's manifest with the URL of each part (the page downloads them, checks
  each SHA-256, and keeps them in the service worker's cache);
- `GET /offline/<version>/app.zip`: the app's zip; `GET /offline/<version>/worker.js`: the Web Worker that runs
  it (static/js/offline-worker.js), served here because it is the one script whose policy allows compiling
  WebAssembly ('wasm-unsafe-eval'; never 'unsafe-eval': no page gets either);
- the runtime's files are static files (settings.OFFLINE_RUNTIME_PREFIX).

Nothing of it is fetched by a page unless its user asked for the pack (static/js/boot.js loads offline.js then).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.csp import CSP
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET

from calculator.engine.rulesets import RULESETS
from calculator.offline import pack
from calculator.offline.pack import Manifest, read_manifest
from calculator.presentation.claims.fields import kept_query
from calculator.presentation.locale import lang_of
from calculator.presentation.words import seat_labels

# The worker's policy: the site's, and WebAssembly may be compiled (Pyodide's interpreter is WebAssembly).
WORKER_CSP = {**settings.SECURE_CSP, "script-src": [CSP.SELF, CSP.WASM_UNSAFE_EVAL]}
FOREVER = "public, max-age=31536000, immutable"  # a part's URL holds the pack's version


def build(out_dir: Path | None = None) -> Manifest:
    """The pack of this checkout with this site's static URLs and pages' paths, into `out_dir` (default
    OFFLINE_PACK_DIR): `manage.py build_offline_pack`, and the tests."""
    return pack.build(
        Path(out_dir or settings.OFFLINE_PACK_DIR),
        root=Path(settings.BASE_DIR),
        locale_dir=Path(settings.LOCALE_PATHS[0]),
        runtime_dir=Path(settings.OFFLINE_RUNTIME_DIR),
        static=static,
        page=reverse,
    )


def manifest() -> Manifest | None:
    """The pack as built now (None when `build_offline_pack` has not run): read again when the file changes."""
    path = Path(settings.OFFLINE_PACK_DIR) / "manifest.json"
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return None
    return _manifest_at(str(path.parent), stamp)


@lru_cache(maxsize=4)
def _manifest_at(folder: str, stamp: int) -> Manifest | None:
    return read_manifest(Path(folder))


def offer(built: Manifest | None) -> dict | None:
    """What the offer on a page says and links to (templates/offline_offer.html), or None without a pack."""
    if built is None:
        return None
    return {
        "version": built.version,
        "manifest_url": reverse("offline_manifest"),
        "trainer_url": reverse("trainer"),  # its page is kept with the pack: the phone draws its questions
        "megabytes": f"{built.gzip_size / 1_000_000:.1f}",
    }


def claims_pages() -> list[str]:
    """The page of who takes a discard as the pack keeps it: its inputs are drawn for one game and table size (the
    phone draws its answer), so it is kept for each, under the query a share link writes for them (claims'
    `kept_query`), and once as it opens with nothing chosen (the manifest's `pages`). public/sw.js answers a link
    offline with the copy of its game and size."""
    path = reverse("claims")
    queries = {kept_query(game, size) for game, ruleset in RULESETS.items() for size in ruleset.table_sizes}
    return [path, *(f"{path}?{query}" for query in sorted(queries))]


def words() -> dict:
    """What static/js/offline.js says (the offer's progress, a table's hands waiting to send)."""
    return {
        "starting": _("Starting the download…"),
        "downloading": _("Downloading: %(percent)s%"),
        "preparing": _("Downloaded. Preparing the calculator in this phone…"),
        "ready": _("Ready: this phone scores hands without network."),
        "updating": _("Updating the offline pack…"),
        "removed": _("The offline pack is removed."),
        "failed": _("The offline pack could not be kept: %(why)s"),
        "damaged": _("a part arrived damaged"),
        "tableTitle": _("Scoring for table %(title)s"),
        "tableOffline": _("Without network: hands are recorded in this phone and sent to the table once it is back."),
        "dealer": _("Dealer"),
        "backToTable": _("Back to the table"),
        "queueTitle": _("Hands recorded in this phone"),
        "waiting": _("waiting to send"),
        "sending": _("sending…"),
        "sent": _("sent"),
        "refused": _("the table refused it: %(why)s"),
        "hand": _("Hand %(n)s"),
        "recorded": _("Recorded in this phone: waiting to send."),
        "changed": _(
            "The table moved on while this phone was offline (another hand was recorded): scored again, this hand "
            "pays differently. Record it with the new payments?"
        ),
        "before": _("scored offline"),
        "now": _("at the table now"),
        "when": _("%(when)s:"),  # before the nets scored then
        "confirm": _("Record with the new payments"),
        "drop": _("Do not record this hand"),
        "dropped": _("not recorded (the referee decided)"),
        "seats": seat_labels(lang_of(get_language())),
    }


@require_GET
def pack_manifest(request: HttpRequest) -> HttpResponse:
    built = manifest()
    if built is None:
        raise Http404("no offline pack built")
    runtime = static(f"{settings.OFFLINE_RUNTIME_PREFIX}/{built.runtime[0].name}").rsplit("/", 1)[0] + "/"
    base = reverse("offline_part", args=[built.version, "app.zip"]).rsplit("/", 1)[0] + "/"
    parts = [{"url": runtime + part.name, "sha256": part.sha256, "size": part.size} for part in built.runtime]
    parts.append({"url": base + "app.zip", "sha256": built.app.sha256, "size": built.app.size})
    parts.append({"url": base + "worker.js", "sha256": built.worker.sha256, "size": built.worker.size})
    body = {**built.to_dict(), "runtime_url": runtime, "app_url": parts[-2]["url"], "worker_url": parts[-1]["url"]}
    body["parts"] = parts
    body["pages"] = claims_pages()  # kept with the pack (static/js/offline.js): not on every page's offer
    response = JsonResponse(body)
    response["Cache-Control"] = "no-cache"  # the page asks it each time it checks for a newer pack
    return response


@require_GET
@csp_override(WORKER_CSP)
def pack_part(request: HttpRequest, version: str, name: str) -> HttpResponse:
    built = manifest()
    if built is None or version != built.version:
        raise Http404("no such offline pack")  # an old pack's page asks the manifest again, then the new parts
    parts = {"app.zip": (built.app, "application/zip"), "worker.js": (built.worker, "text/javascript; charset=utf-8")}
    if name not in parts:
        raise Http404("no such part")
    part, content_type = parts[name]
    response = FileResponse((Path(settings.OFFLINE_PACK_DIR) / part.name).open("rb"), content_type=content_type)
    response["Cache-Control"] = FOREVER  # the URL holds the version
    return response
