"""The README is what a newcomer reads first (issue 31): what the app is, then the two commands, then a map of the
code and links. At most 15 KB; every page and picture it (and each page of docs/) links to is there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LINK = re.compile(r"\]\(([^)\s]+)\)")  # a Markdown link's or picture's target
PAGES = ["using.md", "house-rules.md", "offline.md", "api.md", "security.md", "deployment.md", "code.md"]


def local_links(page: Path) -> list[str]:
    return [t for t in LINK.findall(page.read_text(encoding="utf-8")) if not re.match(r"[a-z]+:|#", t)]


def test_the_readme_is_at_most_15_kb():
    assert len(README.read_bytes()) <= 15 * 1024


def test_the_two_commands_come_before_the_map_of_the_code():
    text = README.read_text(encoding="utf-8")
    commands, code = text.index("bash scripts/serve"), text.index("## A map of the code")
    assert text.index("bash scripts/test") < code and commands < code
    assert commands < 4 * 1024  # after what the app is and one row of pictures, not after pages of them


def test_the_readme_links_each_page_of_docs():
    links = local_links(README)
    assert {f"docs/{page}" for page in PAGES} <= set(links)


@pytest.mark.parametrize("page", [README, *(ROOT / "docs" / name for name in PAGES)], ids=lambda p: p.name)
def test_every_local_link_of_the_readme_and_the_docs_leads_to_a_file(page):
    missing = [t for t in local_links(page) if not (page.parent / t.split("#")[0]).exists()]
    assert missing == []
