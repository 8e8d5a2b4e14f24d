"""Issue 32: the verdict as a picture, and links that preview it. The picture's content is read from its SVG (every
seat's net and name, the hand's tiles), its QR code decoded from the PNG the server draws (zxing-cpp), for both
games, a table of three, a hand that is no win, the waits of a 13-tile hand and a table's evening; the preview tags'
words in both languages; a preview never names an edit link."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import quote
from xml.etree import ElementTree

import pytest
from django.test import Client, override_settings

from calculator.plumbing.pictures import app_version
from calculator.presentation.picture.text import LEAST, width
from tests.ledger.client import Api
from tests.ledger.hands import B1 as B1_HAND
from tests.pictures import characters_of, decoded, png_size

pytestmark = pytest.mark.django_db

NS = {"svg": "http://www.w3.org/2000/svg"}
B1 = "ruleset=bazhi&hand=111345789p79m55s&win_tile=8m&winner=S&dealer=E&discarder=W"
B1_NETS = {"E": "−7", "S": "+19", "W": "−7", "N": "−5"}
LONG = "Maximilian-Alexander von Hohenzollern-Si"  # 40 letters, the longest a name may be
NAMES = f"&name_S={quote('小王')}&name_W={quote(LONG)}&name_N={quote('亚历山德拉·冯·霍恩施陶芬贝格公爵夫人的长名字')}"
# West self-draws; a 财神 (5p) stands in for the pair's 2s
XINYU = "ruleset=xinyu&caishen=5p&hand=123m456m789sEEE5p&win_tile=2s&winner=W&dealer=E"
THREE = "ruleset=bazhi&players=3&hand=111345789p79m55s&win_tile=8m&winner=S&dealer=E&discarder=W"
NO_WIN = "ruleset=bazhi&hand=111345789p79m56s&win_tile=8m&winner=S&dealer=E&discarder=W"
WAITS = "ruleset=bazhi&hand=111345789p79m55s&winner=S&dealer=E"


def client_in(lang: str) -> Client:
    client = Client()
    client.cookies["django_language"] = "en" if lang == "en" else "zh-hans"
    return client


def picture(query: str, lang: str, kind: str):
    """The picture of a share link's query (sent on to its canonical URL first), and that URL."""
    response = Client().get(f"/picture/{app_version()}/{lang}.{kind}?{query}", follow=True)
    assert response.status_code == 200, response.content[:300]
    return response, response.redirect_chain[-1][0] if response.redirect_chain else None


def tree(query: str, lang: str = "zh") -> ElementTree.Element:
    return ElementTree.fromstring(picture(query, lang, "svg")[0].content)


def lines(element: ElementTree.Element) -> list[str]:
    return [text.text or "" for text in element.iter(f"{{{NS['svg']}}}text")]


def band(svg: ElementTree.Element) -> list[str]:
    """The lines of the band at the top: the game and its rule card, the verdict."""
    return lines(svg.find(".//svg:g[@data-part='verdict']", NS))


def seat(svg: ElementTree.Element, code: str) -> ElementTree.Element | None:
    return svg.find(f".//svg:g[@data-seat='{code}']", NS)


def share_link(query: str) -> str:
    """The canonical share link the picture's QR code holds (the calculator's own, as its card shows it)."""
    page = Client().get(f"/?{query}").content.decode()
    return unescape(re.search(r'id="share-url" type="url" readonly value="([^"]+)"', page).group(1))


def placed_texts(element: ElementTree.Element, x: float = 0.0):
    """Every <text> with its x on the picture (the groups' translations added up)."""
    for child in element:
        if child.tag == f"{{{NS['svg']}}}g":
            move = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", child.get("transform", "translate(0 0)"))
            yield from placed_texts(child, x + float(move.group(1)))
        elif child.tag == f"{{{NS['svg']}}}text":
            yield x + float(child.get("x")), child


# ------------------------------------------------------------------------------------------ a hand's picture


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_picture_of_a_win_shows_every_seats_name_and_net(lang):
    svg = tree(B1 + NAMES, lang)
    names = {"S": "小王", "W": LONG, "N": "亚历山德拉·冯·霍恩施陶芬贝格公爵夫人的长名字"}
    for code, net in B1_NETS.items():
        cell = seat(svg, code)
        assert cell.get("data-net") == net.replace("−", "-").removeprefix("+")
        said = lines(cell)
        assert net in said  # the net whole, on a line of its own
        if code in names:  # a long name wraps: its lines, joined, are the name
            assert names[code].replace(" ", "") in "".join(said).replace(" ", "")


def test_the_picture_of_a_win_shows_the_hand_read_with_the_winning_tile_marked_and_every_rule():
    svg = tree(B1)
    groups = [g.get("data-tiles") for g in svg.findall(".//svg:g[@data-part='hand']//svg:g[@data-tiles]", NS)]
    assert sorted(groups) == sorted(["5s5s", "7m8m9m", "1p1p1p", "3p4p5p", "7p8p9p"])
    assert len(svg.findall(".//svg:g[@data-tiles='7m8m9m']/svg:rect[@stroke='#e08600']", NS)) == 1  # the 8m marked
    said = " ".join(lines(svg.find(".//svg:g[@data-part='lines']", NS)))
    for rule in ("§1.2", "§1.3", "§1.4", "§1.5"):
        assert rule in said


def test_the_picture_of_xinyu_shows_the_caishen_with_the_tile_it_stood_for():
    svg = tree(XINYU)
    pair = svg.find(".//svg:g[@data-tiles='2s5p']", NS)
    uses = [use.get("href") for use in pair.iter(f"{{{NS['svg']}}}use")]
    assert uses == ["#t-2s", "#t-5p", "#t-2s"]  # the 财神 (5p), and under it the 2s it stands for
    assert "当二条" in "".join(lines(pair))
    assert {code: seat(svg, code).get("data-net") for code in "ESWN"} == {"E": "-12", "S": "-12", "W": "36", "N": "-12"}
    assert "财神 五筒" in band(svg)[0]  # the rule card's line names the 财神


# North's pung of 1p exposed; 压档 may be any middle tile (a house rule off its default)
MELD_HOUSE = (
    "ruleset=bazhi&hand=345789p79m55s&meld1=pung&meld1_tiles=111p&meld1_from=N&win_tile=8m&winner=S&dealer=E"
    "&discarder=W&house_yadang_wait=any"
)


def test_the_picture_shows_an_exposed_meld_on_its_shaded_box_with_the_seat_it_came_from():
    meld = tree(MELD_HOUSE).find(".//svg:g[@data-part='hand']//svg:g[@data-tiles='1p1p1p']", NS)
    assert [rect.get("fill") for rect in meld.findall("svg:rect", NS)] == ["#e3ede6"]  # the melds' shade
    assert lines(meld) == ["碰 ← 北"]
    concealed = tree(B1).find(".//svg:g[@data-part='hand']//svg:g[@data-tiles='1p1p1p']", NS)
    assert concealed.findall("svg:rect", NS) == []  # the same tiles in the hand: no shade


@pytest.mark.parametrize(
    ("lang", "said"), [("zh", "压档要求: 中张即可"), ("en", "压档 (middle wait) needs: the middle tile alone")]
)
def test_the_picture_names_a_house_rule_read_otherwise_than_by_default(lang, said):
    assert said in " ".join(band(tree(MELD_HOUSE, lang)))  # on the rule card's line, wrapped or not
    assert ":" not in " ".join(band(tree(B1, lang)))  # every house rule by default: none is named


def test_the_picture_at_a_table_of_three_has_three_seats():
    svg = tree(THREE)
    assert {code: seat(svg, code) is not None for code in "ESWN"} == {"E": True, "S": True, "W": True, "N": False}
    assert [seat(svg, code).get("data-net") for code in "ESW"] == ["-7", "14", "-7"]
    assert "三人（东南西）" in band(svg)[0]


def test_the_picture_of_a_hand_that_is_no_win_says_why_and_shows_the_nearest_win():
    svg = tree(NO_WIN)
    assert "不能胡" in band(svg)
    assert svg.find(".//svg:g[@data-part='nearest']", NS) is not None
    assert svg.findall(".//svg:use[@opacity='0.35']", NS)  # a missing tile, dashed and faded


def test_the_picture_of_the_waits_shows_each_wait_and_what_each_way_pays():
    svg = tree(WAITS, "en")
    wait = svg.find(".//svg:g[@data-wait='8m']", NS)
    said = lines(wait)
    assert "Self-draw +34" in said and "Discard by West +19" in said
    assert "East\u00a0−7 · West\u00a0−7 · North\u00a0−5" in said


@pytest.mark.parametrize("query", [B1 + NAMES, XINYU, THREE, NO_WIN, WAITS])
def test_the_picture_is_1080_px_wide_and_its_smallest_text_24_px(query):
    svg = tree(query)
    assert svg.get("width") == "1080"
    sizes = [int(text.get("font-size")) for text in svg.iter(f"{{{NS['svg']}}}text") if text.get("font-size")]
    assert min(sizes) >= LEAST
    tiles = [float(use.get("width")) for use in svg.iter(f"{{{NS['svg']}}}use")]
    assert min(tiles) >= 48  # a tile's numeral (31 of its 60 units) at least 24 px


@pytest.mark.parametrize("query", [B1 + NAMES, THREE])
def test_no_line_of_the_picture_runs_past_its_edges(query):
    """Long names wrap (or shrink): every line, measured by the picture's own upper bound of its width, stays
    inside the picture's margins."""
    for lang in ("zh", "en"):
        for x, text in placed_texts(tree(query, lang)):
            wide = width(text.text or "", int(text.get("font-size")), text.get("font-weight") == "700")
            left = {"end": x - wide, "middle": x - wide / 2}.get(text.get("text-anchor"), x)
            assert left >= 40 and left + wide <= 1040, (text.text, left, wide)


def undrawn(svg: ElementTree.Element) -> set[str]:
    """The characters of the picture's lines that its first font (the one a PNG is drawn in) does not have."""
    first = re.match(r"""['"]([^'"]+)['"]""", svg.get("font-family") or "").group(1)
    drawn = characters_of(first)
    return {char for line in lines(svg) for char in line if ord(char) not in drawn}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("query", [B1 + NAMES, XINYU, THREE, NO_WIN, WAITS])
def test_every_character_of_the_picture_is_in_its_first_font(query, lang):
    """resvg draws a run of text in one font: a character the first font lacks sends the run to another. The English
    "the tiles marked ✗ do not fit" was drawn whole in DejaVu Sans, wider and heavier than the lines around it."""
    assert undrawn(tree(query, lang)) == set()


@pytest.mark.parametrize("query", [B1, XINYU, THREE, NO_WIN, WAITS])
def test_the_pictures_qr_code_opens_the_same_answer(query):
    response, _ = picture(query, "zh", "png")
    assert decoded(response.content) == share_link(query)


def test_the_png_is_the_svg_drawn_at_its_size_and_cached_for_good():
    svg = tree(B1, "en")
    response, url = picture(B1, "en", "png")
    assert response["Content-Type"] == "image/png"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert png_size(response.content) == (1080, int(svg.get("height")))
    assert f"/picture/{app_version()}/en.png?" in url


def test_a_picture_url_of_another_version_or_written_otherwise_is_sent_on_to_the_canonical_one():
    client = Client()
    old = client.get(f"/picture/0123456789ab/zh.svg?{B1}")
    assert old.status_code == 302 and f"/picture/{app_version()}/zh.svg?ruleset=bazhi&tariff=315" in old["Location"]
    assert "immutable" not in old["Cache-Control"]
    canonical = old["Location"]
    assert client.get(canonical).status_code == 200
    with_token = client.get(canonical + "&table=abc&token=secret")
    assert with_token.status_code == 302 and "token" not in with_token["Location"]


def test_an_answer_without_a_picture_is_not_found():
    assert (
        Client().get(f"/picture/{app_version()}/zh.svg?ruleset=bazhi&hand=&winner=E&dealer=E", follow=True).status_code
        == 404
    )


@override_settings(RATE_LIMIT_ENABLED=True, RATE_LIMITS={"read": "1000/60", "write": "25/60", "create": "10/60"})
def test_drawing_a_png_counts_as_several_scores():
    """RATE_LIMIT_PICTURE_COST (10) writes each: two pictures fit in 25, a third does not; an SVG (the phone draws
    the PNG) is a read like any other."""
    client = Client()
    url = picture(B1, "zh", "svg")[1] or f"/picture/{app_version()}/zh.svg?{B1}"
    png = url.replace("zh.svg", "zh.png")
    assert [client.get(png).status_code for _ in range(3)] == [200, 200, 429]
    assert client.get(url).status_code == 200


# ------------------------------------------------------------------------------------------ the previews


def meta(page: str) -> dict[str, str]:
    return {
        key: unescape(value)
        for key, value in re.findall(r'<meta (?:property|name)="((?:og|twitter):[^"]+)" content="([^"]*)"', page)
    }


@pytest.mark.parametrize(
    "lang, title",
    [
        ("zh", "南胡 西放铳 · 南 +19 · 东 −7 西 −7 北 −5"),
        ("en", "South wins, West discards · South +19 · East −7 West −7 North −5"),
    ],
)
def test_a_share_link_previews_the_verdict_in_words_and_its_picture(lang, title):
    tags = meta(client_in(lang).get(f"/?{B1}").content.decode())
    assert tags["og:title"] == tags["twitter:title"] == title
    assert tags["twitter:card"] == "summary_large_image"
    assert tags["og:image"] == tags["twitter:image"]
    assert tags["og:image"].startswith(f"http://testserver/picture/{app_version()}/{lang}.png?ruleset=bazhi")
    response = Client().get(tags["og:image"].removeprefix("http://testserver"))
    assert response["Content-Type"] == "image/png" and png_size(response.content)[0] == 1080


@pytest.mark.parametrize(
    "lang, title",
    [
        ("zh", "西自摸 · 西 +36 · 东 −12 南 −12 北 −12"),
        ("en", "West wins by self-draw · West +36 · East −12 South −12 North −12"),
    ],
)
def test_a_self_drawn_win_previews_in_words(lang, title):
    assert meta(client_in(lang).get(f"/?{XINYU}").content.decode())["og:title"] == title


def test_a_table_of_three_previews_its_three_seats():
    assert meta(Client().get(f"/?{THREE}").content.decode())["og:title"] == "南胡 西放铳 · 南 +14 · 东 −7 西 −7"


def test_a_preview_with_names_says_them_in_its_description():
    tags = meta(Client().get(f"/?{B1}{NAMES}").content.decode())
    assert "南 · 小王" in tags["og:description"] and LONG in tags["og:description"]


def test_a_page_without_an_answer_has_no_preview():
    assert meta(Client().get("/").content.decode()) == {}


# ------------------------------------------------------------------------------------------ a table's evening


@pytest.fixture
def table(client):
    api = Api(client, {"ruleset": "bazhi", "options": {"tariff": "315"}})
    api.ok("hands", B1_HAND)
    return api


def test_the_evenings_picture_shows_every_players_total_and_who_pays_whom(table):
    page = table.get()
    svg = ElementTree.fromstring(Client().get(picture_url(table), follow=True).content)
    for code, name in {"E": "阿东", "S": "小南", "W": "老西", "N": "北北"}.items():
        row = seat(svg, code)
        assert row.get("data-net") == str(page["totals"][code])
        assert name in lines(row)
    transfers = svg.findall(".//svg:g[@data-part='settlement']/svg:g[@data-amount]", NS)
    assert sorted((t.get("data-from"), t.get("data-to"), int(t.get("data-amount"))) for t in transfers) == sorted(
        (t["from"], t["to"], t["amount"]) for t in page["settlement"]
    )


def picture_url(table: Api, kind: str = "svg", version: int | None = None) -> str:
    """The table's picture (at `version`, else as it is now)."""
    at = table.get()["version"] if version is None else version
    return f"/tables/{table.id}/picture/{app_version()}/{at}/zh.{kind}"


def test_every_character_of_the_evenings_picture_is_in_its_first_font(table):
    assert undrawn(ElementTree.fromstring(Client().get(picture_url(table), follow=True).content)) == set()


def test_the_evenings_qr_code_is_the_read_only_link_never_the_edit_link(table):
    response = Client().get(picture_url(table, "png"), follow=True)
    assert response["Content-Type"] == "image/png" and png_size(response.content)[0] == 1080
    assert decoded(response.content) == f"http://testserver/tables/{table.id}/"


def test_an_evenings_picture_of_an_older_version_is_sent_on_to_the_current_one(table):
    now = table.get()["version"]
    old = Client().get(picture_url(table, version=now - 1))
    assert old.status_code == 302 and old["Location"].endswith(f"/{now}/zh.svg")


def test_an_edit_pages_preview_names_the_read_only_link_and_no_token(table):
    page = Client().get(f"/tables/{table.id}/edit/{table.token}/").content.decode()
    tags = meta(page)
    assert tags["og:url"] == f"http://testserver/tables/{table.id}/"
    assert "/picture/" in tags["og:image"]
    assert table.token not in page[: page.index("</head>")]


def test_a_bound_calculators_preview_carries_no_token(table):
    page = Client().get(f"/?table={table.id}&token={table.token}&{B1}").content.decode()
    tags = meta(page)
    assert tags, "a bound calculator with a win previews it"
    assert all(table.token not in value and "table=" not in value for value in tags.values())


def test_a_tables_preview_names_the_standings(client):
    api = Api(client, {"ruleset": "bazhi", "options": {"tariff": "315"}})
    api.ok("hands", B1_HAND)
    title = meta(Client().get(f"/tables/{api.id}/").content.decode())["og:title"]
    assert "南 · 小南 +19" in title and title.index("+19") < title.index("−5")


def test_a_table_that_does_not_exist_has_no_picture():
    assert Client().get(f"/tables/nosuch/picture/{app_version()}/1/zh.svg").status_code == 404
