"""Which requests take the slow lane (calculator/plumbing/lanes.py): every read of a whole table, and nothing else:
not a score, not a write, not the calculator, not a path that does not exist."""

from __future__ import annotations

import pytest

from calculator.plumbing.lanes import is_slow

TABLE = "t0123456789abcdef"


@pytest.mark.parametrize(
    "path",
    [
        f"/tables/{TABLE}/",
        f"/tables/{TABLE}/live/",
        f"/tables/{TABLE}/export.csv",
        f"/tables/{TABLE}/edit/token/",
        f"/api/tables/{TABLE}",
    ],
)
@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_read_of_a_whole_table_takes_the_slow_lane(method, path):
    assert is_slow({"method": method, "path": path})


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/score"),
        ("GET", "/"),
        ("GET", "/rules/"),
        ("GET", "/healthz"),
        ("POST", f"/api/tables/{TABLE}/hands"),
        ("POST", f"/tables/{TABLE}/edit/token/undo/"),
        ("GET", f"/tables/{TABLE}/edit/token/record/"),
        ("POST", f"/tables/{TABLE}/edit/token/record/"),
        ("POST", f"/tables/{TABLE}/live/"),
        ("GET", "/tables/"),
        ("GET", "/no/such/page/"),
    ],
)
def test_everything_else_takes_the_apps_lane(method, path):
    assert not is_slow({"method": method, "path": path})
