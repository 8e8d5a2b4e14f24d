"""WSGI entry point: Django's application, which calculator/asgi.py hands to the production server."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "calculator.settings")
application = get_wsgi_application()
