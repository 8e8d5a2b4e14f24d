#!/usr/bin/env python3
"""Write calculator/ledger/unicode_tables.py: the Unicode properties the names rule needs that Python's unicodedata
does not have (Default_Ignorable_Code_Point, Extended_Pictographic, Emoji_Modifier), as ranges of code points.

    .venv/bin/python tools/unicode_tables.py            # from Debian's unicode-data (apt-get install unicode-data)
    .venv/bin/python tools/unicode_tables.py --check    # exit 1 if the committed module differs

The source is the Unicode Character Database as Debian packages it (/usr/share/unicode): DerivedCoreProperties.txt
and emoji/emoji-data.txt. tests/ledger/test_names.py runs the same comparison as `--check`.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UCD = Path("/usr/share/unicode")
TARGET = ROOT / "calculator" / "ledger" / "unicode_tables.py"
# (the module's name for the table, the file under UCD, the property's name in it)
TABLES = (
    ("DEFAULT_IGNORABLE", "DerivedCoreProperties.txt", "Default_Ignorable_Code_Point"),
    ("EXTENDED_PICTOGRAPHIC", "emoji/emoji-data.txt", "Extended_Pictographic"),
    ("EMOJI_MODIFIER", "emoji/emoji-data.txt", "Emoji_Modifier"),
)
LINE = re.compile(r"^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*;\s*(\w+)\s*#")
VERSION = re.compile(r"^# DerivedCoreProperties-(\d+\.\d+\.\d+)\.txt")


def ranges(path: Path, prop: str) -> list[tuple[int, int]]:
    """The code points having `prop` in a UCD file, as sorted ranges with adjacent ones merged."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = LINE.match(line)
        if match and match.group(3) == prop:
            first = int(match.group(1), 16)
            found.append((first, int(match.group(2) or match.group(1), 16)))
    merged: list[tuple[int, int]] = []
    for first, last in sorted(found):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(last, merged[-1][1]))
        else:
            merged.append((first, last))
    return merged


def version(ucd: Path) -> str:
    with (ucd / "DerivedCoreProperties.txt").open(encoding="utf-8") as source:
        match = VERSION.match(source.readline())
    if not match:
        raise SystemExit("DerivedCoreProperties.txt does not say its version on its first line")
    return match.group(1)


def module(ucd: Path = UCD) -> str:
    """The text of calculator/ledger/unicode_tables.py made from the UCD at `ucd`."""
    lines = [
        '"""Unicode properties that Python\'s unicodedata does not have, for the names rule (calculator/ledger/names.py):',
        "ranges of code points (first, last), inclusive and sorted.",
        "",
        f"Made by tools/unicode_tables.py from the Unicode Character Database {version(ucd)} (Debian's unicode-data:",
        "DerivedCoreProperties.txt, emoji/emoji-data.txt); tests/ledger/test_names.py checks it against them. Not edited",
        'by hand."""',
        "",
        f'UNICODE_VERSION = "{version(ucd)}"',
    ]
    for name, file, prop in TABLES:
        found = [f"(0x{first:04X}, 0x{last:04X})," for first, last in ranges(ucd / file, prop)]
        lines += ["", f"# {prop}"]
        # as ruff formats it: one range on the line of the name, more of them one a line
        lines += [f"{name} = ({found[0]})"] if len(found) == 1 else [f"{name} = (", *(f"    {r}" for r in found), ")"]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed module instead of writing")
    parser.add_argument("--ucd", type=Path, default=UCD, help="where the Unicode Character Database is")
    args = parser.parse_args()
    text = module(args.ucd)
    if args.check:
        same = TARGET.read_text(encoding="utf-8") == text
        print("the same" if same else f"{TARGET} differs from what {args.ucd} gives: run tools/unicode_tables.py")
        return 0 if same else 1
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
