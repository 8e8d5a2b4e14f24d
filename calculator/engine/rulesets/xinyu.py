"""`xinyu`: 新余冲击麻将 v2.0.1 (seed 000), read as RULES.md §2. Payments in 龙, 财神 wildcards."""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import ScoreError, flag_conflict
from ..hand import ScoreRequest, XinyuOptions
from ..notation import InvalidNotationError, parse_tiles
from ..tiles import FIRST_HONOUR, NUM_KINDS, Tile

MAX_DEALER_STREAK = 99


def caishen_after(indicator: Tile) -> Tile:
    """财神 = the tile after the turned indicator: 1→2…9→1 per suit; 东→南→西→北→东; 中→发→白→中."""
    if not indicator.is_honour:
        base = indicator.index - indicator.index % 9
        return Tile(base + (indicator.index - base + 1) % 9)
    winds = [Tile.honour(h) for h in "ESWN"]
    dragons = [Tile.honour(h) for h in "CFP"]
    cycle = winds if indicator in winds else dragons
    return cycle[(cycle.index(indicator) + 1) % len(cycle)]


def _option_tile(raw: Mapping, key: str) -> Tile | None:
    value = raw.get(key)
    if value is None:
        return None
    try:
        tiles = parse_tiles(value) if isinstance(value, str) else ()
    except InvalidNotationError:
        tiles = ()
    if len(tiles) != 1:
        raise ScoreError("bad_option", f"{key} 必须正好是一张牌，收到 {value!r}", f"{key} must be exactly one tile, got {value!r}", f"options.{key}")
    return tiles[0]


class Xinyu:
    name = "xinyu"
    name_zh = "新余冲击麻将"
    name_en = "xinyu (Xinyu chongji)"
    kinds = frozenset(range(NUM_KINDS))
    flags = frozenset(
        ["kong_bloom", "double_kong_bloom", "robbing_kong", "last_tile", "heavenly", "earthly", "pao_long", "liable_caishen"]
    )
    allows_chow = True

    def parse_options(self, raw: object) -> XinyuOptions:
        if raw is None:
            raw = {}
        if not isinstance(raw, Mapping):
            raise ScoreError("bad_option", "options 必须是对象", "options must be an object", "options")
        unknown = sorted(set(raw) - {"caishen", "indicator", "dealer_streak"})
        if unknown:
            raise ScoreError("bad_option", f"新余没有选项 {unknown[0]!r}", f"xinyu has no option {unknown[0]!r}", "options")
        caishen = _option_tile(raw, "caishen")
        indicator = _option_tile(raw, "indicator")
        if caishen is None and indicator is None:
            raise ScoreError(
                "bad_option",
                "请指定财神（caishen）或翻出的指示牌（indicator）",
                "give the 财神 (caishen) or the turned indicator tile (indicator)",
                "options",
            )
        if indicator is not None:
            derived = caishen_after(indicator)
            if caishen is not None and caishen != derived:
                raise ScoreError(
                    "bad_option",
                    f"指示牌 {indicator} 的财神是 {derived}，与 caishen {caishen} 不符",
                    f"indicator {indicator} makes {derived} the 财神, not {caishen}",
                    "options.caishen",
                )
            caishen = derived
        streak = raw.get("dealer_streak", 1)
        if not isinstance(streak, int) or isinstance(streak, bool) or not 1 <= streak <= MAX_DEALER_STREAK:
            raise ScoreError(
                "bad_option",
                f"连庄数 dealer_streak 必须是 1 到 {MAX_DEALER_STREAK} 的整数，收到 {streak!r}",
                f"dealer_streak must be a whole number from 1 to {MAX_DEALER_STREAK}, got {streak!r}",
                "options.dealer_streak",
            )
        return XinyuOptions(caishen, indicator, streak)

    def check_meld(self, tiles, options: XinyuOptions, number: int, field: str) -> None:
        if options.caishen in tiles:
            raise ScoreError(
                "caishen_in_meld",
                f"财神（{options.caishen}）不能用来吃、碰、杠（第 {number} 组副露）",
                f"the 财神 ({options.caishen}) cannot be in a chow, pung or kong (meld {number})",
                field,
            )

    def check_flags(self, request: ScoreRequest) -> None:
        if request.has("earthly") and request.discarder != request.dealer:
            raise flag_conflict("地胡必须是胡庄家打出的第一张牌", "earthly needs the dealer as the discarder")

    def is_win(self, request: ScoreRequest) -> bool:
        raise NotImplementedError("xinyu scoring is being built (issue 3)")

    def evaluate(self, request: ScoreRequest, lang: str = "zh") -> dict:
        raise NotImplementedError("xinyu scoring is being built (issue 3)")


RULESET = Xinyu()

__all__ = ["RULESET", "caishen_after", "FIRST_HONOUR"]
