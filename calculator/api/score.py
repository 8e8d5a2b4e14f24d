"""The JSON API (API.md): thin views over the engine. Every answer is JSON; never a 500 for bad input."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from calculator.engine import score
from calculator.engine.claims import priority
from calculator.engine.errors import ScoreError
from calculator.plumbing.django_locale import engine_lang
from calculator.plumbing.strict_json import read_json


def error_response(error: ScoreError, lang: str, status: int = 400) -> JsonResponse:
    return JsonResponse(error.to_dict(lang), status=status, json_dumps_params={"ensure_ascii": False})


def json_endpoint(request: HttpRequest, answer) -> JsonResponse:
    """Read the JSON body, let `answer(data, lang)` reply, and send 400 for an error object, else 200."""
    lang = engine_lang(request)
    try:
        data = read_json(request)
    except ScoreError as error:
        return error_response(error, lang)
    result = answer(data, lang)
    status = 400 if "error" in result else 200
    return JsonResponse(result, status=status, json_dumps_params={"ensure_ascii": False})


# No cookie carries authority here: the endpoint reads only its body and writes nothing, so CSRF
# protection has nothing to protect.
@csrf_exempt
@require_POST
def api_score(request: HttpRequest) -> JsonResponse:
    return json_endpoint(request, score)


# Like api_score: reads only its body, writes nothing, so there is nothing for CSRF to protect.
@csrf_exempt
@require_POST
def api_priority(request: HttpRequest) -> JsonResponse:
    """Who takes a discard several players claim, and why (docs/API-priority.md; RULES.md §1.1, §2.5)."""
    return json_endpoint(request, priority)
