"""Issue 32 through the deployment an operator runs (docs/deployment.md, docs/pictures.md): a share link's og:image
depends on nothing but its address, the app says so, and nginx's proxy_cache (deploy/nginx.conf) keeps it, so the
second preview of the same link never reaches the app, which keeps no copy of its own."""

from __future__ import annotations

import re

from .deployment import deployed

B1 = "ruleset=bazhi&hand=111345789p79m55s&win_tile=8m&winner=S&dealer=E&discarder=W"


def test_a_verdicts_picture_is_drawn_once_by_the_app_and_then_kept_by_nginx(tmp_path):
    with deployed(tmp_path, workers=1) as site:
        _, html = site.request("GET", f"/?{B1}")
        image = re.search(r'<meta property="og:image" content="https?://[^/"]+(/picture/[^"]+)"', html.decode())
        address = image.group(1).replace("&amp;", "&")
        answers = [site.request("GET", address) for _ in range(2)]
        assert [(r.status, r.getheader("Content-Type")) for r, _ in answers] == [(200, "image/png")] * 2
        assert answers[0][1] == answers[1][1] and answers[0][1][:8] == b"\x89PNG\r\n\x1a\n"
        path = address.split("?")[0]
        assert [line["cache"] for line in site.logs.nginx_lines() if line["path"] == path] == ["MISS", "HIT"]
        assert len([line for line in site.logs.app_lines() if line.get("path") == path]) == 1
