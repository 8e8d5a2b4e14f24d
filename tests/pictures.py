"""What the pictures' tests read of a PNG (issue 32): its size from its header, its QR code by zxing-cpp."""

from __future__ import annotations

import io
import struct
import subprocess

import zxingcpp
from PIL import Image


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height), from the PNG's header."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def decoded(png: bytes) -> str:
    """The one QR code in the PNG, read by zxing-cpp."""
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)).convert("L"))
    assert len(found) == 1
    return found[0].text


def characters_of(family: str) -> set[int]:
    """The code points a system font draws, as fontconfig reads them (the fonts resvg draws a PNG's text in)."""
    found = subprocess.run(["fc-match", "-f", "%{family}\n%{charset}", family], capture_output=True, text=True)
    matched, ranges = found.stdout.split("\n", 1)
    assert family in matched.split(","), f"{family} is not installed (fonts-noto-cjk): fontconfig gives {matched}"
    points: set[int] = set()
    for part in ranges.split():
        first, _, last = part.partition("-")
        points.update(range(int(first, 16), int(last or first, 16) + 1))
    return points
