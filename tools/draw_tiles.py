#!/usr/bin/env python3
"""Generate the project's SVG mahjong tile faces into static/tiles/.

Run from anywhere:  python3 tools/draw_tiles.py
Every file uses viewBox="0 0 60 80" (3:4 portrait), presentation attributes
only (no style=, no scripts, no external references) and a <title>.
Art is kept bold and simple so it stays readable at 40 px wide.
"""

import math
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "tiles"

# Palette
FACE = "#fbf6e9"
EDGE = "#2b2b2b"
INK = "#1f1f1f"
RED = "#c8232c"
GREEN = "#17753c"
BLUE = "#1b4f9c"
BACK = "#1e7a4c"
DARK = {"#17753c": "#0b4a24", "#c8232c": "#7e1218"}
LIGHT = {"#17753c": "#7fb894", "#c8232c": "#e98a8f"}
BACK_LIGHT = "#5fb386"

FONT = (
    '"Noto Sans CJK SC","Noto Sans SC","Source Han Sans SC",'
    '"PingFang SC","Hiragino Sans GB","Microsoft YaHei",sans-serif'
)

NUMERALS = "一二三四五六七八九"


def f(x):
    """Compact number formatting."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return s if s != "-0" else "0"


def svg(title, body, face=True):
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 80" width="60" height="80" role="img">',
        f"<title>{title}</title>",
    ]
    if face:
        parts.append(
            f'<rect x="1.5" y="1.5" width="57" height="77" rx="7" fill="{FACE}" stroke="{EDGE}" stroke-width="2.2"/>'
        )
    parts.extend(body)
    parts.append("</svg>\n")
    return "\n".join(parts)


def text(ch, x, y, size, fill):
    return (
        f'<text x="{f(x)}" y="{f(y)}" font-size="{f(size)}" '
        f'fill="{fill}" text-anchor="middle" font-weight="700" '
        f"font-family='{FONT}'>{ch}</text>"
    )


# ---------------------------------------------------------------- dots (筒)
def dot(cx, cy, r, col):
    return (
        f'<circle cx="{f(cx)}" cy="{f(cy)}" r="{f(r)}" fill="{col}"/>'
        f'<circle cx="{f(cx)}" cy="{f(cy)}" r="{f(r * 0.58)}" fill="{FACE}"/>'
        f'<circle cx="{f(cx)}" cy="{f(cy)}" r="{f(r * 0.32)}" fill="{col}"/>'
    )


def one_dot():
    cx, cy = 30, 40
    out = [
        f'<circle cx="{cx}" cy="{cy}" r="23" fill="{GREEN}"/>',
        f'<circle cx="{cx}" cy="{cy}" r="19" fill="{FACE}"/>',
        f'<circle cx="{cx}" cy="{cy}" r="16.5" fill="{BLUE}"/>',
    ]
    for i in range(8):
        a = math.pi * 2 * i / 8
        out.append(
            f'<circle cx="{f(cx + 11.5 * math.cos(a))}" cy="{f(cy + 11.5 * math.sin(a))}" r="2.6" fill="{FACE}"/>'
        )
    out += [
        f'<circle cx="{cx}" cy="{cy}" r="6.5" fill="{RED}"/>',
        f'<circle cx="{cx}" cy="{cy}" r="2.6" fill="{FACE}"/>',
    ]
    return out


B, G, R = BLUE, GREEN, RED
DOTS = {
    2: (13, [(30, 23, G), (30, 57, B)]),
    3: (10, [(16, 18, B), (30, 40, R), (44, 62, G)]),
    4: (11, [(18, 23, B), (42, 23, G), (18, 57, G), (42, 57, B)]),
    5: (10, [(17, 19, B), (43, 19, G), (30, 40, R), (17, 61, G), (43, 61, B)]),
    6: (9, [(19, 16, G), (41, 16, G), (19, 44, R), (41, 44, R), (19, 64, R), (41, 64, R)]),
    7: (8, [(15, 13, G), (30, 21, G), (45, 29, G), (19, 46, R), (41, 46, R), (19, 65, R), (41, 65, R)]),
    8: (8, [(19, y, B) for y in (15, 31.7, 48.3, 65)] + [(41, y, B) for y in (15, 31.7, 48.3, 65)]),
    9: (8, [(x, y, c) for y, c in ((17, B), (40, R), (63, G)) for x in (14.5, 30, 45.5)]),
}


def dots_tile(n):
    if n == 1:
        return one_dot()
    r, pts = DOTS[n]
    return [dot(x, y, r, c) for x, y, c in pts]


# ------------------------------------------------------------- bamboo (条)
def stick(cx, cy, w, h, col, rot=0):
    """A bamboo stick: solid rounded bar with a bulging joint in the middle
    and small caps at both ends (kept solid so it reads as one stick)."""
    x, y = cx - w / 2, cy - h / 2
    dark = DARK.get(col, col)
    tr = f' transform="rotate({f(rot)} {f(cx)} {f(cy)})"' if rot else ""
    return (
        f'<g{tr}><rect x="{f(x)}" y="{f(y)}" width="{f(w)}" '
        f'height="{f(h)}" rx="{f(w * 0.4)}" fill="{col}"/>'
        f'<rect x="{f(x - 1)}" y="{f(cy - 1.6)}" width="{f(w + 2)}" '
        f'height="3.2" rx="1.2" fill="{dark}"/>'
        f'<rect x="{f(cx - 0.8)}" y="{f(y + 2.5)}" width="1.6" '
        f'height="{f(h / 2 - 5)}" fill="{LIGHT[col]}"/>'
        f'<rect x="{f(cx - 0.8)}" y="{f(cy + 2.5)}" width="1.6" '
        f'height="{f(h / 2 - 5)}" fill="{LIGHT[col]}"/></g>'
    )


W = 8
STICKS = {
    2: [(30, 22, 10, 28, G), (30, 58, 10, 28, G)],
    3: [(30, 22, 10, 28, G), (18, 58, 10, 28, G), (42, 58, 10, 28, G)],
    4: [(x, y, 10, 28, G) for y in (22, 58) for x in (18, 42)],
    5: [(x, y, W, 28, G) for y in (22, 58) for x in (14, 46)] + [(30, 40, W, 28, R)],
    6: [(x, y, W, 28, G) for y in (22, 58) for x in (15, 30, 45)],
    7: [(30, 15, W, 19, R)] + [(x, y, W, 20, G) for y in (39, 63) for x in (15, 30, 45)],
    9: [(x, y, W, 20, R if x == 30 else G) for y in (16, 40, 64) for x in (15, 30, 45)],
}


def bamboo_tile(n):
    if n == 1:
        return bird()
    if n == 8:
        out = []
        for y, sign in ((22, 1), (58, -1)):
            out.append(stick(10.5, y, 7, 28, G))
            out.append(stick(24, y, 7, 28, G, 17 * sign))
            out.append(stick(36, y, 7, 28, G, -17 * sign))
            out.append(stick(49.5, y, 7, 28, G))
        return out
    return [stick(*s) for s in STICKS[n]]


def bird():
    """A simple standing bird (the traditional 1-bamboo 'sparrow')."""
    return [
        # tail fan (behind the body)
        f'<path d="M34 46 L55 24 L57 40 Z" fill="{BLUE}"/>',
        f'<path d="M34 48 L58 44 L52 60 Z" fill="{RED}"/>',
        f'<path d="M33 50 L50 66 L38 70 Z" fill="{BLUE}"/>',
        # legs
        f'<path d="M24 58 L21 71 M31 58 L33 71 M14 72 H42" stroke="{INK}" '
        f'stroke-width="2.4" stroke-linecap="round" fill="none"/>',
        # body
        f'<ellipse cx="27" cy="48" rx="14" ry="11.5" fill="{GREEN}"/>',
        # wing
        f'<path d="M22 44 Q32 40 38 50 Q29 55 22 44 Z" fill="{FACE}"/>',
        # head
        f'<circle cx="17" cy="26" r="9" fill="{GREEN}"/>',
        f'<path d="M9 23 L2 28 L9 30 Z" fill="{RED}"/>',
        f'<path d="M14 18 Q17 9 24 12 Q20 14 20 19 Z" fill="{RED}"/>',
        f'<circle cx="16" cy="25" r="3" fill="{FACE}"/>',
        f'<circle cx="15.6" cy="25" r="1.6" fill="{INK}"/>',
        # neck join
        f'<path d="M11 31 Q15 38 16 42 L28 38 Q24 30 23 27 Z" fill="{GREEN}"/>',
    ]


# ------------------------------------------------------------ characters (万)
def man_tile(n):
    return [text(NUMERALS[n - 1], 30, 34, 31, INK), text("萬", 30, 71.5, 32, RED)]


# ---------------------------------------------------------------- honours
HONOURS = {
    "E": ("东风", "东", INK),
    "S": ("南风", "南", INK),
    "W": ("西风", "西", INK),
    "N": ("北风", "北", INK),
    "C": ("红中", "中", RED),
    "F": ("发财", "发", GREEN),
}


def honour_tile(code):
    title, ch, col = HONOURS[code]
    return title, [text(ch, 30, 57.5, 46, col)]


def white_tile():
    return [
        f'<rect x="10" y="11" width="40" height="58" rx="3" fill="none" stroke="{BLUE}" stroke-width="3.6"/>',
        f'<rect x="15.5" y="16.5" width="29" height="47" rx="1.5" fill="none" stroke="{BLUE}" stroke-width="1.6"/>',
    ]


def back_tile():
    return [
        f'<rect x="1.5" y="1.5" width="57" height="77" rx="7" fill="{BACK}" stroke="{EDGE}" stroke-width="2.2"/>',
        f'<rect x="7" y="7" width="46" height="66" rx="4" fill="none" stroke="{BACK_LIGHT}" stroke-width="2"/>',
    ]


# ----------------------------------------------------------------- main
def build():
    tiles = {}
    for n in range(1, 10):
        num = NUMERALS[n - 1]
        tiles[f"{n}m"] = svg(f"{num}万", man_tile(n))
        tiles[f"{n}p"] = svg(f"{num}筒", dots_tile(n))
        tiles[f"{n}s"] = svg(f"{num}条", bamboo_tile(n))
    for code in HONOURS:
        title, body = honour_tile(code)
        tiles[code] = svg(title, body)
    tiles["P"] = svg("白板", white_tile())
    tiles["back"] = svg("牌背", back_tile(), face=False)
    return tiles


ROWS = [[f"{n}{s}" for n in range(1, 10)] for s in "mps"] + [["E", "S", "W", "N", "C", "F", "P", "back"]]


def contact_sheet():
    """Static HTML showing every tile at 40 px and 80 px wide."""
    html = [
        "<!doctype html>",
        '<html lang="zh"><head><meta charset="utf-8">',
        "<title>Tile contact sheet</title>",
        '<link rel="icon" href="data:,">',
        "<style>body{margin:8px;font:12px sans-serif;background:#ddd}"
        "div{margin:0 0 4px;white-space:nowrap}img{margin:0 2px;vertical-align:top}"
        "h2{font-size:12px;margin:6px 0 2px}</style></head><body>",
    ]
    for width in (40, 80):
        html.append(f"<h2>{width} px wide</h2>")
        for row in ROWS:
            imgs = "".join(f'<img src="../static/tiles/{n}.svg" width="{width}" alt="{n}" title="{n}">' for n in row)
            html.append(f"<div>{imgs}</div>")
    html.append("</body></html>\n")
    return "\n".join(html)


SPRITE_ORDER = [name for row in ROWS for name in row]


def sprite(tiles):
    """Every tile in one file, side by side, each named by a <view> (its notation): `tiles.svg#8m` in an <img>
    shows that tile alone. The page asks for this one file instead of 35 (issue 14: the first load)."""
    # no width or height: a <view> sets what an <img> shows, and the page's CSS gives the tile its 3:4 shape
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {60 * len(SPRITE_ORDER)} 80">']
    for i, name in enumerate(SPRITE_ORDER):
        body = tiles[name].split("\n")[2:-2]  # without the <svg> and <title> lines and the closing tag
        parts.append(f'<view id="{name}" viewBox="{60 * i} 0 60 80"/>')
        parts.append(f'<g transform="translate({60 * i})">')
        parts.extend(body)
        parts.append("</g>")
    parts.append("</svg>\n")
    return "\n".join(parts)


CSS = OUT.parent / "css" / "app.css"
CSS_START = "/* the tiles in the sprite: written by tools/draw_tiles.py (sprite_css) */"
CSS_END = "/* end of the tiles in the sprite */"


def sprite_css():
    """Where each tile sits in the sprite, for a tile drawn as the sprite's background (`<span class="tile
    t-8m">`, static/css/app.css): the sprite is as wide as all its tiles side by side, so tile i of n shows at
    i / (n - 1) of the way along. The page draws its tiles so rather than as `<img src="tiles.svg#8m">`: Chromium
    paints an <img> of a view of the sprite anew each time (the whole sprite, ~1 ms a tile on the development
    machine), a background once (docs/PERFORMANCE.md, the tap's answer)."""
    last = len(SPRITE_ORDER) - 1
    rules = [f".t-{name} {{ background-position-x: {f(100 * i / last)}%; }}" for i, name in enumerate(SPRITE_ORDER)]
    return "\n".join([CSS_START, *rules, CSS_END])


def write_sprite_css():
    """The sprite's block of static/css/app.css, between its two marks, replaced (or added at the end)."""
    text = CSS.read_text(encoding="utf-8")
    if CSS_START in text:
        before, rest = text.split(CSS_START, 1)
        after = rest.split(CSS_END, 1)[1]
        text = before + sprite_css() + after
    else:
        text = text.rstrip("\n") + "\n\n" + sprite_css() + "\n"
    CSS.write_text(text, encoding="utf-8")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    tiles = build()
    for name, data in tiles.items():
        (OUT / f"{name}.svg").write_text(data, encoding="utf-8")
    (OUT / "tiles.svg").write_text(sprite(tiles), encoding="utf-8")
    write_sprite_css()
    sheet = Path(__file__).resolve().parent / "tile_sheet.html"
    sheet.write_text(contact_sheet(), encoding="utf-8")
    sizes = [len(d.encode()) for d in tiles.values()]
    print(f"wrote {len(tiles)} tiles to {OUT} (max {max(sizes)} bytes)")


if __name__ == "__main__":
    main()
