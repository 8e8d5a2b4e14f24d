"""The rules page's content: every pattern of both games with example tiles and its value, and every
**[reading]** of RULES.md (the interpretations a referee must be able to see). Values follow RULES.md §1 and §2.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .engine import parse_tiles
from .forms import tile_name


def P(zh: str, en, value, what, tiles: str = "") -> dict:  # noqa: N802 - a table row, read as data
    return {"zh": zh, "en": en, "value": value, "what": what, "tiles": tiles}


BAZHI_BASICS = [
    P(
        "八支",
        _("Eight of a suit"),
        _("required"),
        _(
            "One suit (万, 筒 or 条) holds 8 or more tiles, melds included, a kong counting 4. 红中 counts for no suit. Without it the hand is not a win."
        ),
        "12345678m 99p 123s",
    ),
    P("支数", _("Suit count S"), _("S"), _("The size of the largest suit."), "111345789p"),
    P(
        "压档",
        _("Middle wait"),
        _("+ rank to T; 底番 2 / 4"),
        _("The winning tile is the middle of a sequence and the only wait; its rank is added to the tile total T."),
        "79m 8m",
    ),
    P(
        "支番",
        _("Suit fan"),
        _("315: T × 2 ÷ 10 · 525: T ÷ 2"),
        _("From the tile total T = S (+ the 压档 rank), rounded half up."),
        "",
    ),
    P(
        "底番",
        _("Base fan"),
        _("315: 1 / 2 / 3 / 4 · 525: 2 / 4 / 6 / 8"),
        _("Win / 压档 / self-draw / self-draw with 压档."),
        "",
    ),
    P(
        "杠分",
        _("Kong points"),
        _("315: 1 / 1 / 2 · 525: 2 / 2 / 4"),
        _("The winner's own exposed / added / concealed kongs."),
        "2222s",
    ),
]
BAZHI_ZUI = [
    P("对对胡", _("All triplets"), _("1 嘴"), _("Every set is a triplet or kong."), "111m 333m 555p 777s CC"),
    P("通天", _("Straight"), _("1 嘴"), _("The sequences 123, 456 and 789 of one suit."), "123456789p 55s"),
    P(
        "四核",
        _("Four of a kind inside"),
        _("1 嘴 each"),
        _("All four copies of a tile, not as a kong: a triplet plus one copy in a sequence."),
        "555p 345p",
    ),
    P(
        "混一色",
        _("One suit with red dragons"),
        _("1 嘴"),
        _("Every tile of one suit or 红中, at least one 红中."),
        "123456789p CCC 11p",
    ),
    P(
        "杠后开花",
        _("Win on a kong replacement"),
        _("1 嘴 (a self-draw)"),
        _("Self-drawn on the replacement tile after a kong."),
        "",
    ),
]
BAZHI_JIAO = [
    P("清一色", _("Pure one suit"), _("交 (direct)"), _("Every tile of one suit, no 红中."), "11123456789p 99p"),
    P(
        "双八支",
        _("Double eight"),
        _("交 (direct)"),
        _("One suit has 8+ tiles and another suit has two kongs."),
        "2222s 4444s",
    ),
    P("双四核", _("Two fours inside"), _("交 (direct)"), _("Two 四核 kinds."), ""),
    P("天胡", _("Heavenly hand"), _("交 (direct)"), _("The dealer wins on the dealt 14 tiles, no melds."), ""),
    P(
        "地胡",
        _("Earthly hand"),
        _("交 (direct)"),
        _("A non-dealer wins on a discard in the first go-around, no melds."),
        "",
    ),
    P("两嘴", _("Two 嘴"), _("交"), _("Any two 嘴子 together."), ""),
    P(
        "杠后开花 + 压档 / 单吊",
        _("Kong bloom with a middle or single wait"),
        _("交 (special)"),
        _("杠后开花 together with 压档 or 单吊; 杠上杠后开花 on its own."),
        "",
    ),
    P(
        "混一色 + 自摸",
        _("One suit with red dragons, self-drawn"),
        _("交 (special)"),
        _("混一色 won by self-draw."),
        "",
    ),
]
BAZHI_MONEY = [
    P(
        "番",
        _("Fan per loser"),
        "F = (支番 + Z × 嘴值) × (2 if 自摸) + 底番 + 杠分",
        _(
            "Each of the three losers pays F; the dealer (or every loser, when the dealer wins) pays one more 底番; the discarder pays one more 底番."
        ),
        "",
    ),
    P("嘴值", _("Value of one 嘴"), _("315: 2 · 525: 5"), _("In 番."), ""),
    P(
        "交分",
        _("Jiao"),
        _("315: 30 + 10 per extra 嘴 · 525: 50 + 20"),
        _("Paid outside the 底 by every loser; the discarder pays one more 嘴 of 交分."),
        "",
    ),
    P(
        "包牌",
        _("One pays for all"),
        _("all 番 and 交"),
        _(
            "Only on a 交 hand from a 报警 position (三对 of one suit, 四对转包, 双八支, 双四核, 混一色顶嘴子): the liable seat pays for every loser."
        ),
        "",
    ),
]

XINYU_PATTERNS = [
    P(
        "财神 (龙)",
        _("Wild tile"),
        _("+1 龙 each; none = 2"),
        _(
            "The tile after the turned indicator. Each 财神 in the concealed hand is one 龙; with none the hand counts 2 (无龙算2龙)."
        ),
        "",
    ),
    P("顺胡", _("Plain win"), "0", _("A standard win with nothing else."), "123m 456p 789s 234s 55m"),
    P(
        "对对碰 (七对)",
        _("Seven pairs"),
        "+1",
        _("Seven pairs, no melds; four of a kind counts as two pairs."),
        "1122m 3344p 5566s EE",
    ),
    P(
        "十三不搭",
        _("Thirteen unrelated"),
        "+1",
        _("14 tiles, no two alike; ranks of a suit differ by 3 or more; honours distinct."),
        "147m 258p 369s ESWNC",
    ),
    P(
        "七风齐",
        _("All seven honours"),
        _("+1 more"),
        _("十三不搭 with all seven honours as natural tiles."),
        "147m 25p 36s ESWNCFP",
    ),
    P(
        "混一色",
        _("One suit with honours"),
        "+1",
        _("All suited tiles of one suit and at least one honour."),
        "123456789m EEE NN",
    ),
    P("大对对", _("All triplets"), "+1", _("Standard shape, every set a triplet or kong."), "111m 333p 555s EEE CC"),
    P("清一色", _("Pure one suit"), "+10", _("Every tile of one suit."), "11123456789s 99s"),
    P(
        "清七对",
        _("Pure seven pairs"),
        "+10",
        _("Seven pairs of one suit (replaces 对对碰 and 清一色)."),
        "11335577p 2244p 99p",
    ),
    P("天胡", _("Heavenly hand"), "+10", _("The dealer wins on the dealt hand."), ""),
    P("地胡", _("Earthly hand"), "+10", _("A non-dealer wins on the dealer's first discard."), ""),
    P("杠爆", _("Win on a kong replacement"), "+10", _("Self-drawn on a kong's replacement tile."), ""),
    P("海底捞月", _("Last tile"), "+10", _("Self-draw of the last tile."), ""),
    P("单吊", _("Single wait after four melds"), "+10", _("Four melds and one concealed tile, won by pairing it."), ""),
    P("抛龙", _("Passed self-draw"), "+10", _("Self-draw after passing an earlier self-drawn win."), ""),
    P("4龙", _("Four wild tiles"), _("+10 (+10 more with a legal shape)"), _("Four 财神, self-draw only."), ""),
    P("全风向", _("All honours"), "+50", _("Every tile an honour; wins with any shape."), "EEE SSS WWW NN CCC"),
]
XINYU_MONEY = [
    P("底龙", _("Table base"), "11 + 10 × (streak − 1)", _("First-time dealer 11, 二老庄 21, 三老庄 31 …"), ""),
    P("P", _("Payment unit"), "P = 底龙 + 龙", _("龙 = 财神 count (or 2) + every bonus."), ""),
    P("自摸", _("Self-draw"), _("each pays P"), _("Also 杠爆, 海底, 天胡, 抛龙, 4龙."), ""),
    P(
        "放铳",
        _("Discard"),
        _("P and P ÷ 2, P ÷ 2"),
        _("The discarder pays P; the two others pay half, rounded half up."),
        "",
    ),
    P(
        "抢杠胡 / 包牌",
        _("Robbing a kong / liable discard"),
        _("P + 2 × (P ÷ 2)"),
        _("The robbed player, or the discarder who fed a 财神 late in the hand, pays for all."),
        "",
    ),
]

READINGS = [
    (
        "§1.2",
        "压档",
        _(
            "The winning tile is the middle tile of a sequence in the chosen decomposition, and the 13-tile hand has a unique wait. Its value is the rank. An edge wait (12 → 3) is not 压档."
        ),
    ),
    ("§1.2", "单吊", _("The winning tile completes the pair in the chosen decomposition, and the wait is unique.")),
    (
        "§1.2",
        "通天四核",
        _(
            "With 通天 in a suit, every kind of that suit held four times (not as a kong) counts as a 四核, even when its copies are not a triplet plus a sequence. So 通天四核 is two 嘴 and therefore 交."
        ),
    ),
    ("§1.2", "双八支", _("One suit has 8 or more tiles and another suit has two kongs.")),
    (
        "§1.2",
        "海底捞月",
        _(
            "No score effect in bazhi: shown as a label only. 海底捞月 together with 杠后开花 is an error (no kong with 4 or fewer tiles left)."
        ),
    ),
    ("§1.2", "抢杠胡", _("Paid as a discard win, the robbed player being the discarder.")),
    ("§1.3", "底分", _("One 底 (a player's stake in a 底 game) is 30 in 315 and 50 in 525.")),
    ("§1.3", "交分", _("One 交 in 525 is 50 (one 底).")),
    (
        "§1.6",
        "包牌",
        _(
            '"The discarder" is the seed\'s 顶嘴子 / 出冲 player: whoever discards the winning tile into the 报警 hand; with no discard there is no 包 for those rows.'
        ),
    ),
    (
        "§1.6",
        "报警",
        _(
            '"Three exposed melds" are the first three exposed melds in meld order; a 补杠 counts as the fourth pung / 明杠; for 双八支 an exposed 红中 meld is not "another suit"; 混一色顶嘴子 needs at least one suited exposed meld beside the 红中 one.'
        ),
    ),
    ("§1.7", "脱底", _("番 payments come out of the 底: a payer (a 包牌 payer too) pays at most what is left.")),
    (
        "§2.3",
        "七风齐",
        _(
            "Impossible when the 财神 kind is an honour: the seed calls all seven honours 风牌, and they must be natural tiles."
        ),
    ),
    ("§2.3", "清七对", _("Worth +10 and replaces both 对对碰 (+1) and 清一色 (+10).")),
    ("§2.3", "单吊", _("Four melds and one concealed tile, won by pairing it (盛下一张牌胡牌): +10.")),
    ("§2.4", "底龙", _("底龙 is the table's base for the hand, whoever wins.")),
    (
        "§2.4",
        "抢杠胡",
        _(
            "The robbed player pays for all: P + 2 × (P ÷ 2, rounded), read like the seed's 包牌 example (13 + 7 + 7), not 3 × P."
        ),
    ),
    (
        "§2.6",
        "离场",
        _(
            "At a real table a leaving penalty goes to the other three: each gets the penalty ÷ 3 rounded down, the remainder to the first of them in play order after the leaver."
        ),
    ),
    ("§2.6", "流局", _("On a drawn hand the dealer stays, with the same streak.")),
]


def tiles_of(text: str, lang: str) -> list[list[dict]]:
    """Example tiles as groups (split on spaces) of {n, name}."""
    groups = []
    for part in text.split():
        groups.append([{"n": t.notation, "name": tile_name(t, lang)} for t in parse_tiles(part)])
    return groups


def _rows(rows: list[dict], lang: str) -> list[dict]:
    return [dict(row, groups=tiles_of(row["tiles"], lang)) for row in rows]


def rulebook(lang: str) -> dict:
    return {
        "bazhi_basics": _rows(BAZHI_BASICS, lang),
        "bazhi_zui": _rows(BAZHI_ZUI, lang),
        "bazhi_jiao": _rows(BAZHI_JIAO, lang),
        "bazhi_money": _rows(BAZHI_MONEY, lang),
        "xinyu_patterns": _rows(XINYU_PATTERNS, lang),
        "xinyu_money": _rows(XINYU_MONEY, lang),
        "readings": [{"where": where, "zh": zh, "text": text} for where, zh, text in READINGS],
    }
