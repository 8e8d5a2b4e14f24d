"""The scoring engine: pure Python, no Django. `score(request_dict) -> response_dict` (API.md)."""

from .errors import ScoreError
from .notation import InvalidNotationError, format_tiles, parse_tiles
from .score import score
from .tiles import Tile

__all__ = ["InvalidNotationError", "ScoreError", "Tile", "format_tiles", "parse_tiles", "score"]
