"""`python manage.py build_offline_pack`: the offline pack of issue 22 (calculator/offline/pack.py).

Run by scripts/serve and scripts/test after `npm ci` and `compilemessages`; in production after `collectstatic`
(the pack holds the static URLs the card links to, hashed names included).
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from calculator.offline import pack, served


class Command(BaseCommand):
    help = "Build the offline pack (the app's Python, templates and catalogues, with the pinned Pyodide's hashes)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--out", help=f"the pack's folder (default OFFLINE_PACK_DIR: {settings.OFFLINE_PACK_DIR})")

    def handle(self, *args, **options) -> None:
        out = Path(options["out"] or settings.OFFLINE_PACK_DIR)
        try:
            manifest = served.build(out)
        except pack.PackError as error:
            raise CommandError(str(error)) from None
        if options["verbosity"] >= 1:
            for part in (*manifest.runtime, manifest.app, manifest.worker):
                self.stdout.write(f"{part.name:24} {part.size:>10,} B  gzip {part.gzip_size:>10,} B")
            self.stdout.write(f"pack {manifest.version} in {out}: {manifest.gzip_size:,} B gzipped")
