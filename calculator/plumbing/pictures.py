"""Pictures served by the server (issue 32): the verdict's and a table's evening, as the SVG the phone draws
(jinja2/picture.svg) or as PNG, the image a shared link's preview shows (og:image), turned from that SVG by resvg
(resvg-py: a maintained renderer in a wheel of its own, text in the system's fonts: fonts-noto-cjk).

A picture's URL holds everything it is drawn from: the canonical query (or a table's version), the language and
the app's version (a hash of the code, templates, catalogues and tile art that draw it). So it never changes:
it is served with long-lived caching (browsers, chat apps and the reverse proxy keep it; the app keeps nothing),
and an old URL is sent on to the current one. Drawing a PNG costs what several scores cost: it counts as
settings.RATE_LIMIT_PICTURE_COST writes in the client's rate limit.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import resvg_py
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from calculator.plumbing import ratelimit

FOREVER = "public, max-age=31536000, immutable"
MOVED = "public, max-age=300"  # a redirect to the current URL: short, the current one changes with the app
TYPES = {"svg": "image/svg+xml; charset=utf-8", "png": "image/png"}
# what a picture is drawn from (relative to the project's root): its version changes with any of them
SOURCES = (("calculator", "*.py"), ("calculator", "*.toml"), ("jinja2", "*"), ("locale", "*.mo"), ("static/tiles", "*"))


@cache  # of the files on disk, read once per process (they change with a deployment, which restarts it)
def app_version() -> str:
    """The app's version as far as its pictures go: a hash of every file that draws them."""
    root = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    for folder, pattern in SOURCES:
        for path in sorted((root / folder).rglob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def png_of(svg: str) -> bytes:
    """The SVG drawn as PNG at its own size, in the system's fonts."""
    return resvg_py.svg_to_bytes(svg_string=svg)


def picture_response(request: HttpRequest, svg: str, kind: str) -> HttpResponse:
    """The picture as `kind` ("svg" or "png"), cached for good: its URL names all it is drawn from. A PNG is
    charged to the client's rate limit first (ratelimit.Refused: 429)."""
    if kind == "png":
        ratelimit.charge(request, "write", settings.RATE_LIMIT_PICTURE_COST)
        body: bytes | str = png_of(svg)
    else:
        body = svg
    response = HttpResponse(body, content_type=TYPES[kind])
    response["Cache-Control"] = FOREVER
    return response


def moved(url: str) -> HttpResponse:
    """Sent on to the picture's current URL (another app version, another table version, a query written
    otherwise than canonically)."""
    response = HttpResponseRedirect(url)
    response["Cache-Control"] = MOVED
    return response
