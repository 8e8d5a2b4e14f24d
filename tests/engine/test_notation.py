"""The tile notation of RULES.md §0: strict, precise errors, and a canonical inverse."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator.engine import InvalidNotationError, Tile, format_tiles, parse_tiles
from calculator.engine.tiles import ALL_TILES


def test_digits_then_suit():
    assert [str(t) for t in parse_tiles("123m45p6s")] == ["1m", "2m", "3m", "4p", "5p", "6s"]


def test_honours_as_letters_and_as_z_digits():
    assert format_tiles(parse_tiles("1234567z")) == format_tiles(parse_tiles("ESWNPFC")) == "ESWNCFP"


def test_spaces_are_ignored():
    assert parse_tiles(" 12 3m  C ") == parse_tiles("123mC")


def test_case_matters_p_is_dots_and_P_is_white_dragon():
    assert parse_tiles("5p") == (Tile.suited("p", 5),)
    assert parse_tiles("P") == (Tile.honour("P"),)


@pytest.mark.parametrize(
    ("text", "position", "char"),
    [("79x", 2, "x"), ("12", 0, "1"), ("m", 0, "m"), ("8z", 0, "8"), ("1mE0", 3, "0"), ("3C", 0, "3")],
)
def test_errors_name_the_character_and_its_position(text, position, char):
    with pytest.raises(InvalidNotationError) as caught:
        parse_tiles(text)
    assert (caught.value.position, caught.value.char) == (position, char)
    assert repr(text) in str(caught.value)


def test_tile_repr_prints_the_parse_call():
    assert repr(Tile.from_str("8m")) == "Tile.from_str('8m')"
    assert Tile.from_str("C").name_zh == "红中"


def test_canonical_order_is_m_p_s_then_honours():
    assert format_tiles(parse_tiles("55s111345789p79mC")) == "79m111345789p55sC"


@given(st.text(max_size=40))
def test_parser_raises_only_its_own_error(text):
    try:
        tiles = parse_tiles(text)
    except InvalidNotationError:
        return
    assert all(isinstance(t, Tile) for t in tiles)


@given(st.lists(st.sampled_from(ALL_TILES), max_size=18))
def test_format_and_parse_are_inverse(tiles):
    text = format_tiles(tiles)
    assert sorted(parse_tiles(text)) == sorted(tiles)
    assert format_tiles(parse_tiles(text)) == text
