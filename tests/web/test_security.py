"""Issue 7: production settings, error pages, CSRF, no inline code, size caps.

The production checks run `manage.py` in a subprocess with a production environment (settings are read once, at
import): that is what an operator runs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.urls import path

from tests.deploy.production import ROOT, SECRETS, manage, production_env  # noqa: F401 (others import them here)

B1 = {"ruleset": "bazhi", "hand": "111345789p79m55s", "win_tile": "8m", "winner": "S", "dealer": "E", "discarder": "W"}
B1_QUERY = "ruleset=bazhi&hand=111345789p79m55s&win_tile=8m&winner=S&dealer=E&discarder=W"


# ------------------------------------------------------------------------------------------ production settings


def test_check_deploy_is_clean_in_production():
    done = manage("check", "--deploy", "--fail-level", "WARNING", env=production_env(**SECRETS))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues (0 silenced)." in done.stdout


def test_check_deploy_names_the_problems_of_a_development_setup():
    """The test above can fail: the same check with HTTPS switched off reports it."""
    env = production_env(**SECRETS, SECURE_SSL_REDIRECT="0", SECURE_HSTS_SECONDS="0")
    done = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert done.returncode != 0
    assert "security.W008" in done.stderr and "security.W004" in done.stderr


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS"])
def test_production_refuses_to_start_without_its_secrets(missing):
    env = production_env(**{k: v for k, v in SECRETS.items() if k != missing})
    done = manage("check", env=env)
    assert done.returncode != 0
    assert f"ImproperlyConfigured: {missing} is not set. In production set" in done.stderr
    assert "dev-only" not in done.stdout


def test_debug_or_development_runs_with_the_development_key():
    assert manage("check", env=production_env(DEBUG="1")).returncode == 0
    assert manage("check", env=production_env(DJANGO_ENV="development")).returncode == 0


def test_the_scoring_cli_needs_no_production_secrets():
    done = manage("score", env=production_env(), stdin=json.dumps(B1))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["net"] == {"E": -7, "S": 19, "W": -7, "N": -5}


def test_a_bad_number_in_the_environment_is_named():
    done = manage("check", env=production_env(**SECRETS, API_MAX_BODY_BYTES="lots"))
    assert done.returncode != 0 and "API_MAX_BODY_BYTES must be a whole number, not 'lots'" in done.stderr


# ------------------------------------------------------------------------------------------ error pages


def boom(request):
    raise RuntimeError("boom")


urlpatterns = [path("boom/", boom), path("api/boom", boom), *__import__("calculator.urls").urls.urlpatterns]
handler400 = "calculator.plumbing.error_pages.bad_request"
handler403 = "calculator.plumbing.error_pages.permission_denied"
handler404 = "calculator.plumbing.error_pages.page_not_found"
handler500 = "calculator.plumbing.error_pages.server_error"


@pytest.mark.parametrize(
    ("lang", "title", "message"),
    [("zh-hans", "找不到这个页面", "没有这个地址"), ("en", "Page not found", "there is nothing at this address")],
)
def test_404_page_in_both_languages(client, lang, title, message):
    response = client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE=lang)
    html = response.content.decode()
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")
    assert f'<h1 id="error-title">{title}</h1>' in html and message in html
    assert 'class="topbar"' in html  # the site's own frame: templates/404.html extends base.html


@override_settings(ROOT_URLCONF=__name__)
@pytest.mark.parametrize(("lang", "text"), [("zh-hans", "服务器出错"), ("en", "Server error")])
def test_500_page_in_both_languages_and_json_under_api(lang, text):
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=lang)
    response = client.get("/boom/")
    assert response.status_code == 500 and text in response.content.decode()
    response = client.get("/api/boom")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "server_error"
    assert "Traceback" not in response.content.decode() and "boom" not in response.content.decode()


def test_400_for_a_bad_host_page_and_api(client):
    page = client.get("/", HTTP_HOST="evil.example.com", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 400 and "Bad request" in page.content.decode()
    api = client.post("/api/score", json.dumps(B1), content_type="application/json", HTTP_HOST="evil.example.com")
    assert api.status_code == 400 and api.json()["error"]["code"] == "bad_request"


def test_api_errors_are_json_whatever_refused_them(client):
    response = client.get("/api/no/such")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    response = client.get("/api/score")
    assert response.status_code == 405 and response.json()["error"]["code"] == "method_not_allowed"
    assert response["Allow"] == "POST"
    response = client.get("/api/score?lang=en")
    assert response.json()["error"]["message"] == "this address does not accept this method"


# ------------------------------------------------------------------------------------------ CSRF


def csrf_token_of(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def test_page_post_without_the_token_is_refused_with_the_403_page():
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    response = client.post("/", {"ruleset": "bazhi", "hand": "111345789p79m55s"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "Forbidden" in html and "CSRF check failed" in html and "csrf_failed" in html


def test_page_post_with_the_form_token_goes_through():
    client = Client(enforce_csrf_checks=True)
    token = csrf_token_of(client.get("/").content.decode())
    data = dict(pair.split("=") for pair in B1_QUERY.split("&"))
    response = client.post("/", {**data, "csrfmiddlewaretoken": token})
    assert response.status_code in (302, 303) and "hand=111345789p79m55s" in response["Location"]


def test_htmx_requests_carry_the_token_from_hx_headers():
    client = Client(enforce_csrf_checks=True)
    html = client.get("/").content.decode()
    headers = re.search(r'<body hx-headers="([^"]+)"', html).group(1).replace("&quot;", '"')
    token = json.loads(headers)["X-CSRFToken"]
    data = dict(pair.split("=") for pair in B1_QUERY.split("&"))
    assert client.post("/", data, HTTP_HX_REQUEST="true").status_code == 403
    response = client.post("/", data, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)
    assert response.status_code != 403


@pytest.mark.django_db
def test_ledger_page_forms_need_the_token():
    client = Client(enforce_csrf_checks=True)
    form = {"ruleset": "bazhi", "tariff": "315", "multiplier": "1", "dealer": "E"}
    assert client.post("/tables/new/", form).status_code == 403
    token = csrf_token_of(client.get("/tables/new/").content.decode())
    assert client.post("/tables/new/", {**form, "csrfmiddlewaretoken": token}).status_code == 302


@pytest.mark.django_db
def test_json_api_is_exempt_because_no_cookie_carries_authority():
    """API.md: writes need `Authorization: Bearer <edit_token>`; a cross-site form cannot send that header."""
    client = Client(enforce_csrf_checks=True)
    assert client.post("/api/score", json.dumps(B1), content_type="application/json").status_code == 200
    created = client.post("/api/tables", json.dumps({"ruleset": "bazhi"}), content_type="application/json")
    assert created.status_code == 201
    table = created.json()
    hand = {**B1, "dealer": table["dealer"]}
    url = f"/api/tables/{table['id']}/hands"
    # Without the header (all a cross-site page could do): refused, whatever cookies the browser holds.
    assert client.post(url, json.dumps(hand), content_type="application/json").status_code == 401
    done = client.post(
        url, json.dumps(hand), content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {table['edit_token']}"
    )
    assert done.status_code == 201


FORM_RE = re.compile(r"<form\b[^>]*>.*?</form>", re.S | re.I)


def templates() -> list[Path]:
    return sorted((ROOT / "templates").rglob("*.html"))


@pytest.mark.parametrize("template", templates(), ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_every_post_form_has_the_csrf_token(template):
    for form in FORM_RE.findall(template.read_text()):
        opening = form.split(">", 1)[0]
        if re.search(r'method=["\']?post', opening, re.I) or "hx-post" in opening:
            assert "{% csrf_token %}" in form, f"{template.name}: a POST form without {{% csrf_token %}}:\n{opening}"


# ------------------------------------------------------------------------------------------ strict CSP


INLINE = {
    "an inline <script>": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "a <style> element": re.compile(r"<style\b", re.I),
    "a style attribute": re.compile(r"\sstyle\s*=", re.I),
    "an inline event handler": re.compile(r"\son[a-z]+\s*=", re.I),
    "a javascript: URL": re.compile(r"javascript:", re.I),
    "an htmx js: expression": re.compile(r"hx-[a-z-]+=[\"'](js|javascript):", re.I),
    "hx-on (needs eval)": re.compile(r"\shx-on[:-]", re.I),
}


@pytest.mark.parametrize("template", templates(), ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_no_inline_code_in_templates(template):
    text = template.read_text()
    for what, pattern in INLINE.items():
        match = pattern.search(text)
        assert match is None, (
            f"{template.name} has {what} (forbidden by the CSP): {text[match.start() : match.start() + 80]!r}"
        )


def test_the_csp_header_is_strict(client):
    policy = client.get("/")["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert "unsafe" not in policy and directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"


@pytest.mark.django_db
def test_every_answer_carries_the_csp_whoever_made_it(client, settings):
    """Issue 15: the policy was missing where a middleware answered before the CSP middleware ran (405 and 413 of
    the API, 429, the HTTPS redirect, static files, the health check). It is now the outermost middleware."""
    settings.API_MAX_BODY_BYTES = 100
    answers = {
        "page": client.get("/"),
        "405": client.get("/api/score"),
        "413": client.post("/api/score", json.dumps({**B1, "x": "y" * 200}), content_type="application/json"),
        "404 page": client.get("/no/such/"),
        "404 API": client.get("/api/no/such"),
        "static file": client.get("/static/css/app.css"),
        "health check": client.get("/healthz"),
    }
    settings.RATE_LIMIT_ENABLED, settings.RATE_LIMITS = True, {"read": "1/60", "write": "1/60", "create": "1/60"}
    client.get("/rules/")
    answers["429"] = client.get("/rules/")
    settings.RATE_LIMIT_ENABLED, settings.SECURE_SSL_REDIRECT = False, True
    answers["HTTPS redirect"] = Client().get("/rules/")
    assert [a.status_code for a in answers.values()] == [200, 405, 413, 404, 404, 200, 200, 429, 301]
    policy = answers["page"]["Content-Security-Policy"]
    for what, response in answers.items():
        assert response.get("Content-Security-Policy") == policy, what
        assert response.get("X-Content-Type-Options") == "nosniff", what


def test_htmx_is_configured_for_the_csp(client):
    html = client.get("/").content.decode()
    config = json.loads(re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", html).group(1))
    assert config["includeIndicatorStyles"] is False and config["allowEval"] is False


# ------------------------------------------------------------------------------------------ size caps


def test_an_oversized_api_body_is_413_json_before_it_is_read(client, settings):
    settings.API_MAX_BODY_BYTES = 1000
    body = json.dumps({**B1, "padding": "x" * 2000})
    response = client.post("/api/score?lang=en", body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["error"] == {"code": "too_large", "message": "the request body is too large"}
    assert client.post("/api/score", json.dumps(B1), content_type="application/json").status_code == 200


def test_an_oversized_form_post_is_a_400_page(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = client.post("/", {"hand": "1m" * 1000}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and "Bad request" in response.content.decode()


def test_too_many_form_fields_is_a_400_page(client):
    response = client.post("/", {f"f{i}": "1" for i in range(500)})
    assert response.status_code == 400


def test_health_check_answers_before_host_and_https_checks(client, settings, db):
    settings.SECURE_SSL_REDIRECT = True
    response = client.get("/healthz", HTTP_HOST="10.0.0.7")
    assert response.status_code == 200 and response.json() == {"status": "ok"}
    assert client.get("/", HTTP_HOST="10.0.0.7").status_code == 400
