"""QR codes of a table's links (segno, SVG as a data: URI: the page's CSP allows images from data:), so the other
phones join by camera."""

from __future__ import annotations

from functools import lru_cache

import segno


@lru_cache(maxsize=256)  # a table's links never change; one code takes ~5-10 ms to draw
def qr_data_uri(url: str) -> str:
    return segno.make(url, error="m").svg_data_uri(scale=4, border=2, dark="#1b1b1b")
