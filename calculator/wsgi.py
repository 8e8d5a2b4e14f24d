"""The app as the production server runs it: `gunicorn calculator.wsgi:application` (docs/deployment.md).

Django's WSGI application, nothing else: the server (gunicorn) and the reverse proxy in front of it (nginx:
deploy/nginx.conf) own everything about connections, slow clients, timeouts and worker processes.

Importing this module (once in each worker) warms the worker up before it serves its first request: the URLconf
(hence the views, forms and engine) and the calculator's templates, in every language. Without it the first few
requests of every new worker (after a start, a reload, a worker replaced) pay 0.3-1 s each.
"""

from __future__ import annotations

import logging
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "calculator.settings")
application = get_wsgi_application()


def warm_up() -> None:
    try:
        from django.conf import settings
        from django.template.loader import get_template
        from django.urls import get_resolver
        from django.utils import translation

        from calculator.plumbing.django_locale import page_locale
        from calculator.presentation.render import template

        get_resolver().url_patterns  # noqa: B018 (imports the URLconf)
        get_template("calculator.html")
        for lang, _name in settings.LANGUAGES:  # the card's and the strip's environment, one per language
            with translation.override(lang):
                for name in ("result.html", "strip.html"):
                    template(name, page_locale())
    except Exception:  # the first request will meet (and log) the same error
        logging.getLogger(__name__).exception("warm-up before serving failed")


warm_up()
