"""`python manage.py score`: the engine on the command line (API.md).

Reads one request (a JSON object) or a batch (a JSON array) from stdin or --file and prints the
response JSON. Exit 0 for a result, 2 for an error response; a batch always exits 0, with each element's own
answer or error (an element the strict decoder refuses, e.g. one holding a lone surrogate, included), unless the
input is not JSON at all.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

from calculator.engine import score
from calculator.engine.errors import ScoreError
from calculator.engine.text import msg
from calculator.plumbing.strict_json import decode_each


class Command(BaseCommand):
    help = "Score a hand (or a JSON array of hands) read as JSON from stdin or --file."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--file", help="read the request JSON from this file instead of stdin")
        parser.add_argument("--lang", choices=["zh", "en"], default="zh", help="language of messages (default zh)")
        parser.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")

    def handle(self, *args, **options) -> None:
        lang = options["lang"]
        try:
            data = decode_each(self._read(options["file"]))
        except OSError as error:
            failure = ScoreError("bad_json", msg("the input cannot be read: {error}", error=error))
            self._print(failure.to_dict(lang), options["indent"])
            sys.exit(2)
        except ScoreError as failure:  # the same strict reading as an HTTP body (calculator/plumbing/strict_json.py)
            self._print(failure.to_dict(lang), options["indent"])
            sys.exit(2)
        if isinstance(data, list):  # each element answered on its own, its refused JSON included
            answers = [item.to_dict(lang) if isinstance(item, ScoreError) else score(item, lang) for item in data]
            self._print(answers, options["indent"])
            return
        result = score(data, lang)
        self._print(result, options["indent"])
        if "error" in result:
            sys.exit(2)

    def _read(self, path: str | None) -> bytes:
        if path:
            with open(path, "rb") as handle:
                return handle.read()
        return sys.stdin.buffer.read()

    def _print(self, payload, indent: int | None) -> None:
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=indent) + "\n")
        sys.stdout.flush()
