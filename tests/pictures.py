"""What the pictures' tests read of a PNG (issue 32): its size from its header, its QR code by zxing-cpp."""

from __future__ import annotations

import io
import struct

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
