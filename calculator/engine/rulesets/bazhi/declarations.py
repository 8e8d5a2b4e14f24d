"""bazhi's facts as data (RULES.md §1, §5.1): options, tariffs, flags, house rules, patterns, readings and the
names the answer gives its codes. Everything else of the program reads these; the scoring functions beside this
module use them too."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...text import Text
from ...tiles import RED_DRAGON
from ..declarations import Choice, HouseRule, Option, Pattern, PatternGroup, ReadingNote
from ..flags import NOT_DOUBLE_KONG_BLOOM, NOT_KONG_BLOOM, NOT_LAST_TILE, flag

ID = "bazhi"
TITLE = Text("八支 · 红中", "Bazhi · Red Dragon")
SUMMARY = Text(
    "不准吃，没有七对：一对将加四组，且某一门够八支。",
    "No chow, no seven pairs: one pair and four sets, and one suit with eight tiles.",
)
KINDS = frozenset([*range(27), RED_DRAGON])  # the 27 suited kinds and 红中: 112 tiles


# --------------------------------------------------------------------------------------------- tariffs (§1.3)


@dataclass(frozen=True)
class Tariff:
    name: str
    di_fan: tuple[int, int, int, int]  # 和牌, 压档, 自摸, 自摸压档
    zhi_numerator: int  # 支番 = T × numerator ÷ denominator, rounded half up
    zhi_denominator: int
    zui: int  # one 嘴子 in 番
    kong: Mapping[str, int]  # 杠分 by meld type (the winner's own kongs)
    stake: int  # 底分: one 底, a player's stake in a 底 game [reading]
    jiao: int  # 交分 of one 交 (one 底)
    jiao_zui: int  # 交分 of one extra 嘴 (also the 通底 payment)


TARIFFS = {
    "315": Tariff("315", (1, 2, 3, 4), 2, 10, 2, {"kong_exposed": 1, "kong_added": 1, "kong_concealed": 2}, 30, 30, 10),
    "525": Tariff("525", (2, 4, 6, 8), 1, 2, 5, {"kong_exposed": 2, "kong_added": 2, "kong_concealed": 4}, 50, 50, 20),
}

OPTIONS = (
    Option(
        "tariff",
        Text("番价", "Tariff"),
        "choice",
        "315",
        tuple(Choice(name, Text(name, name)) for name in TARIFFS),
    ),
    Option("multi_jiao", Text("可多交", "Multiple jiao (可多交)"), "bool", False),
)


# --------------------------------------------------------------------------------------------- flags (§1.2, §4)

FLAGS = (
    flag("kong_bloom", "§1.2", NOT_LAST_TILE),
    flag("double_kong_bloom", "§1.2", NOT_LAST_TILE),
    flag("robbing_kong", "§1.2"),
    # 海底捞月 leaves no kong: RULES.md §1.2 "海底捞月 with 杠后开花 is an error"
    flag("last_tile", "§1.2", NOT_KONG_BLOOM, NOT_DOUBLE_KONG_BLOOM),
    flag("heavenly", "§1.2"),
    flag("earthly", "§1.2"),
)


# --------------------------------------------------------------------------------------------- house rules (§5.1)

HOUSE = (
    HouseRule(
        "yadang_wait",
        Text("压档要求", "压档 (middle wait) needs"),
        (
            Choice("unique", Text("只听这一张", "a unique wait")),
            Choice("any", Text("中张即可", "the middle tile alone")),
        ),
        Text(
            "选“中张即可”：胡的牌是所用顺子的中张就算压档，不论 13 张听几张；单吊仍须只听一张。",
            "“the middle tile alone”: 压档 whenever the win tile is the middle of its sequence, however many waits "
            "the 13 tiles had; 单吊 still needs a unique wait.",
        ),
        "§5.1",
        example={
            "options": {"tariff": "315"},
            "hand": "1113m123456789p",
            "win_tile": "2m",
            "melds": [],
            "winner": "S",
            "dealer": "E",
            "discarder": "W",
            "flags": [],
        },
    ),
    HouseRule(
        "tongtian_sihe",
        Text("通天四核", "通天四核 (straight with four of a kind)"),
        (Choice(True, Text("算", "counts")), Choice(False, Text("不算", "does not count"))),
        Text(
            "选“不算”：有通天时，四核仍须一个刻子加一张在顺子里。",
            "“does not count”: with 通天 a 四核 still needs a triplet plus a copy in a sequence.",
        ),
        "§5.1",
        example={
            "options": {"tariff": "315"},
            "hand": "12345678934p55p",
            "win_tile": "5p",
            "melds": [],
            "winner": "S",
            "dealer": "E",
            "discarder": "W",
            "flags": [],
        },
    ),
    HouseRule(
        "haidi",
        Text("海底捞月", "海底捞月 (last tile)"),
        (Choice("label", Text("只作标注", "a label only")), Choice("zui", Text("算一嘴", "one more 嘴"))),
        Text(
            "选“算一嘴”：海底捞月多算一个嘴子（计入两嘴成交），自摸照算一嘴单位，不与压档等组成特殊交。",
            "“one more 嘴”: 海底捞月 is one more 嘴子 (it counts toward two 嘴), 自摸 still adds its 嘴 unit, and it "
            "makes no special 交 with 压档 and the like.",
        ),
        "§5.1",
        example={
            "options": {"tariff": "315"},
            "hand": "11133355599p77m",
            "win_tile": "7m",
            "melds": [],
            "winner": "S",
            "dealer": "E",
            "discarder": None,
            "flags": ["last_tile"],
        },
    ),
    HouseRule(
        "qianggang",
        Text("抢杠胡", "抢杠胡 (robbing a kong)"),
        (
            Choice("as_discard", Text("按放铳算", "paid as a discard")),
            Choice("robbed_pays_all", Text("被抢者包", "the robbed seat pays for all")),
        ),
        Text(
            "选“被抢者包”：抢杠胡时被抢杠者替三家付全部番和交（除非包牌表里另有包牌者）。",
            "“the robbed seat pays for all”: on 抢杠胡 the robbed seat pays every loser's 番 and 交 (unless a row "
            "of the 包牌 table names another payer).",
        ),
        "§5.1",
        example={
            "options": {"tariff": "315"},
            "hand": "111345789p79m55s",
            "win_tile": "8m",
            "melds": [],
            "winner": "S",
            "dealer": "E",
            "discarder": "N",
            "flags": ["robbing_kong"],
        },
    ),
    HouseRule(
        "bao_on",
        Text("包牌条件", "包牌 (one pays for all) applies"),
        (
            Choice("jiao", Text("交牌才包", "only on a 交 hand")),
            Choice("any_win", Text("报警胡牌就包", "on every win in 报警")),
        ),
        Text(
            "选“报警胡牌就包”：处于报警的牌胡了就按包牌表包牌，不必是交牌。",
            "“on every win in 报警”: the 包牌 table applies to every win of a hand in 报警, not only to 交 hands.",
        ),
        "§5.1",
        example={
            "options": {"tariff": "315"},
            "hand": "234m7s",
            "win_tile": "7s",
            "melds": [
                {"type": "pung", "tiles": "111p", "from": "W"},
                {"type": "pung", "tiles": "555p", "from": "W"},
                {"type": "pung", "tiles": "999p", "from": "W"},
            ],
            "winner": "S",
            "dealer": "E",
            "discarder": "N",
            "flags": [],
        },
    ),
    HouseRule(
        "draw_dealer",
        Text("流局庄家", "Dealer after a drawn hand"),
        (Choice("pass", Text("下庄", "passes the deal")), Choice("keep", Text("连庄", "keeps the deal"))),
        Text(
            "只影响牌桌记账：选“连庄”时流局后庄家不变。",
            "The ledger only: “keeps the deal” leaves the dealer in place after a drawn hand (流局).",
        ),
        "§5.1",
        scoring=False,
    ),
)


# --------------------------------------------------------------------------------------------- patterns (§1.2-1.6)

# The 嘴子 of §1.4, by the codes of the answer's `zui` (`haidi` only under the house rule haidi=zui).
ZUI = (
    Pattern(
        "duidui",
        Text("对对胡", "All triplets"),
        Text("1 嘴", "1 嘴"),
        Text("每组都是刻子或杠。", "Every set is a triplet or kong."),
        "111m 333m 555p 777s CC",
    ),
    Pattern(
        "tongtian",
        Text("通天", "Straight"),
        Text("1 嘴", "1 嘴"),
        Text("同一门有 123、456、789 三个顺子。", "The sequences 123, 456 and 789 of one suit."),
        "123456789p 55s",
    ),
    Pattern(
        "sihe",
        Text("四核", "Four of a kind inside"),
        Text("每个 1 嘴", "1 嘴 each"),
        Text(
            "同一种牌四张全在手（不是杠）：一个刻子加一张用在顺子里。",
            "All four copies of a tile, not as a kong: a triplet plus one copy in a sequence.",
        ),
        "555p 345p",
    ),
    Pattern(
        "hunyise",
        Text("混一色", "One suit with red dragons"),
        Text("1 嘴", "1 嘴"),
        Text("全是同一门加红中，至少一张红中。", "Every tile of one suit or 红中, at least one 红中."),
        "123456789p CCC 11p",
    ),
    Pattern(
        "ganghua",
        Text("杠后开花", "Win on a kong replacement"),
        Text("1 嘴（算自摸）", "1 嘴 (a self-draw)"),
        Text("开杠后摸到的补牌自摸胡。", "Self-drawn on the replacement tile after a kong."),
    ),
    Pattern(
        "haidi",
        Text("海底捞月", "Last tile"),
        Text("1 嘴（规矩：算一嘴）", "1 嘴 (house rule haidi = zui)"),
        Text(
            "余牌不超过 4 张时自摸；默认只作标注，规矩选“算一嘴”时是一个嘴子。",
            "A self-draw with 4 or fewer tiles left in the wall; a label by default, a 嘴子 under the house rule.",
        ),
    ),
)

# The 交 triggers of §1.5, by the codes of the answer's `jiao.triggers`.
JIAO_TRIGGERS = (
    Pattern(
        "qingyise",
        Text("清一色", "Pure one suit"),
        Text("交（直接全交）", "交 (direct)"),
        Text("全是同一门，没有红中。", "Every tile of one suit, no 红中."),
        "11123456789p 99p",
    ),
    Pattern(
        "shuangbazhi",
        Text("双八支", "Double eight"),
        Text("交（直接全交）", "交 (direct)"),
        Text("一门够八支，另一门有两个杠。", "One suit has 8+ tiles and another suit has two kongs."),
        "2222s 4444s",
    ),
    Pattern(
        "shuangsihe",
        Text("双四核", "Two fours inside"),
        Text("交（直接全交）", "交 (direct)"),
        Text("两个四核。", "Two 四核 kinds."),
    ),
    Pattern(
        "tianhu",
        Text("天胡", "Heavenly hand"),
        Text("交（直接全交）", "交 (direct)"),
        Text("庄家起手 14 张即胡，没有副露。", "The dealer wins on the dealt 14 tiles, no melds."),
    ),
    Pattern(
        "dihu",
        Text("地胡", "Earthly hand"),
        Text("交（直接全交）", "交 (direct)"),
        Text(
            "闲家在第一圈、未摸牌前胡别人打出的牌，没有副露。",
            "A non-dealer wins on a discard in the first go-around, no melds.",
        ),
    ),
    Pattern(
        "two_zui",
        Text("两嘴", "Two 嘴"),
        Text("交", "交"),
        Text("任意两个嘴子。", "Any two 嘴子 together."),
    ),
    Pattern(
        "ganghua_yadang",
        Text("杠后开花 + 压档", "Kong bloom with a middle wait"),
        Text("交（特殊交）", "交 (special)"),
        Text("杠后开花加压档。", "杠后开花 together with 压档."),
    ),
    Pattern(
        "ganghua_dandiao",
        Text("杠后开花 + 单吊", "Kong bloom with a pair wait"),
        Text("交（特殊交）", "交 (special)"),
        Text("杠后开花加单吊。", "杠后开花 together with 单吊."),
    ),
    Pattern(
        "gangshang_ganghua",
        Text("杠上杠后开花", "Double kong bloom"),
        Text("交（特殊交）", "交 (special)"),
        Text("开杠后再开杠，第二张补牌自摸胡；本身即交。", "A kong, another kong on the replacement, then the win."),
    ),
    Pattern(
        "hunyise_zimo",
        Text("混一色 + 自摸", "One suit with red dragons, self-drawn"),
        Text("交（特殊交）", "交 (special)"),
        Text("混一色并且自摸。", "混一色 won by self-draw."),
    ),
)

BASICS = (
    Pattern(
        "bazhi",
        Text("八支", "Eight of a suit"),
        Text("必须", "required"),
        Text(
            "某一门（万、筒或条）有 8 张或以上，副露计入，杠算 4 张；红中不算任何一门。不够八支不能胡。",
            "One suit (万, 筒 or 条) holds 8 or more tiles, melds included, a kong counting 4. 红中 counts for no "
            "suit. Without it the hand is not a win.",
        ),
        "12345678m 99p 123s",
    ),
    Pattern(
        "zhi_count",
        Text("支数", "Suit count S"),
        Text("S", "S"),
        Text("最多的一门的张数。", "The size of the largest suit."),
        "111345789p",
    ),
    Pattern(
        "yadang",
        Text("压档", "Middle wait"),
        Text("点数加入 T；底番 2 / 4", "+ rank to T; 底番 2 / 4"),
        Text(
            "胡的牌是顺子的中张且只听这一张；它的点数加入张数 T。",
            "The winning tile is the middle of a sequence and the only wait; its rank is added to the tile total T.",
        ),
        "79m 8m",
    ),
    Pattern(
        "dandiao",
        Text("单吊", "Pair wait"),
        Text("特殊交的一半", "half of a special 交"),
        Text(
            "胡的牌凑成将，且只听这一张；与杠后开花一起成交。",
            "The winning tile completes the pair and is the only wait; with 杠后开花 it makes 交.",
        ),
        "123456789p 111m 5s 5s",
    ),
    Pattern(
        "zhi_fan",
        Text("支番", "Suit fan"),
        Text("315：T × 2 ÷ 10 · 525：T ÷ 2", "315: T × 2 ÷ 10 · 525: T ÷ 2"),
        Text(
            "由张数 T = S（+ 压档点数）计算，四舍五入。",
            "From the tile total T = S (+ the 压档 rank), rounded half up.",
        ),
    ),
    Pattern(
        "di_fan",
        Text("底番", "Base fan"),
        Text("315：1 / 2 / 3 / 4 · 525：2 / 4 / 6 / 8", "315: 1 / 2 / 3 / 4 · 525: 2 / 4 / 6 / 8"),
        Text("和牌 / 压档 / 自摸 / 自摸压档。", "Win / 压档 / self-draw / self-draw with 压档."),
    ),
    Pattern(
        "kong_points",
        Text("杠分", "Kong points"),
        Text("315：1 / 1 / 2 · 525：2 / 2 / 4", "315: 1 / 1 / 2 · 525: 2 / 2 / 4"),
        Text("胡牌者自己的明杠 / 补杠 / 暗杠。", "The winner's own exposed / added / concealed kongs."),
        "2222s",
    ),
)

MONEY = (
    Pattern(
        "fan",
        Text("番", "Fan per loser"),
        Text("F = (支番 + Z × 嘴值) × (自摸 2) + 底番 + 杠分", "F = (支番 + Z × 嘴值) × (2 if 自摸) + 底番 + 杠分"),
        Text(
            "三家各付 F；庄家多付一份底番（庄家胡时每家多付一份）；放铳者多付一份底番。",
            "Each of the three losers pays F; the dealer (or every loser, when the dealer wins) pays one more 底番; "
            "the discarder pays one more 底番.",
        ),
    ),
    Pattern(
        "zui_value",
        Text("嘴值", "Value of one 嘴"),
        Text("315：2 · 525：5", "315: 2 · 525: 5"),
        Text("以番计。", "In 番."),
    ),
    Pattern(
        "jiao",
        Text("交分", "Jiao"),
        Text("315：30，每多一嘴 10 · 525：50 + 20", "315: 30 + 10 per extra 嘴 · 525: 50 + 20"),
        Text(
            "在底外由每家支付；放铳者多付一嘴的交分。",
            "Paid outside the 底 by every loser; the discarder pays one more 嘴 of 交分.",
        ),
    ),
    Pattern(
        "bao",
        Text("包牌", "One pays for all"),
        Text("全部番和交", "all 番 and 交"),
        Text(
            "只在交牌且处于报警时（清/混一色三对、四对转包、双八支、双四核、混一色顶嘴子）：由包牌者替所有输家付钱。",
            "Only on a 交 hand from a 报警 position (三对 of one suit, 四对转包, 双八支, 双四核, 混一色顶嘴子): the "
            "liable seat pays for every loser.",
        ),
    ),
)

PATTERN_GROUPS = (
    PatternGroup(Text("一手牌的数", "The numbers of a hand"), ("§1.2", "§1.3"), BASICS),
    PatternGroup(Text("嘴子（每个加一份嘴值）", "嘴子 (each one adds 嘴值 to the fan)"), ("§1.4",), ZUI),
    PatternGroup(Text("交牌（在底外付）", "交牌 (paid outside the 底)"), ("§1.5",), JIAO_TRIGGERS),
    PatternGroup(Text("谁付钱", "Who pays"), ("§1.6",), MONEY),
)

# 包牌 (§1.6): the rows of the table, by the answer's `bao_reason`, in the table's order; `qianggang` is the
# house rule qianggang=robbed_pays_all.
BAO_REASONS = {
    "sandui_same_feeder": Text(
        "清一色/混一色三对，同一家供牌：供牌者包牌", "three one-colour melds fed by one seat: that seat pays for all"
    ),
    "sidui_zhuanbao": Text("四对转包：第四对的供牌者包牌", "fourth one-colour meld: its feeder pays for all"),
    "sandui_several_feeders": Text(
        "清一色/混一色三对报警，放铳者包牌", "three one-colour melds on alarm: the discarder pays for all"
    ),
    "shuangbazhi": Text("双八支报警，放铳者包牌", "double-eight alarm: the discarder pays for all"),
    "shuangsihe": Text("双四核报警，放铳者包牌", "two-core alarm: the discarder pays for all"),
    "hunyise_dingzui": Text("混一色顶嘴子，放铳者包牌", "red dragon + one suit alarm: the discarder pays for all"),
    "qianggang": Text("抢杠胡：被抢杠者包牌（规矩）", "robbing a kong: the robbed seat pays for all (house rule)"),
}

# Facts of a win shown as labels: they change no number (under the default card).
LABELS = {
    "haidi": (Text("海底捞月", "last tile"), Text("本规则只作标注，不加分", "a label only in this game")),
    "qianggang": (
        Text("抢杠胡", "robbing a kong"),
        Text("按放铳胡计算，被抢杠者为放铳家", "paid as a discard win by the robbed player"),
    ),
}

READINGS = (
    ReadingNote(
        "§1.2",
        "压档",
        Text(
            "在采用的拆法中，胡的牌是顺子的中张，且 13 张时只听这一张。压档值为该牌点数。边张（12 听 3）不算压档。",
            "The winning tile is the middle tile of a sequence in the chosen decomposition, and the 13-tile hand has "
            "a unique wait. Its value is the rank. An edge wait (12 → 3) is not 压档.",
        ),
    ),
    ReadingNote(
        "§1.2",
        "单吊",
        Text(
            "在采用的拆法中，胡的牌凑成将（对子），且只听这一张。",
            "The winning tile completes the pair in the chosen decomposition, and the wait is unique.",
        ),
    ),
    ReadingNote(
        "§1.2",
        "通天四核",
        Text(
            "某门成通天时，该门中四张齐全（不是杠）的牌都算四核，即使不是刻子加顺子（如 123456789p 345p 55p 中的 "
            "5p）。所以通天四核是两嘴，即交。",
            "With 通天 in a suit, every kind of that suit held four times (not as a kong) counts as a 四核, even when "
            "its copies are not a triplet plus a sequence. So 通天四核 is two 嘴 and therefore 交.",
        ),
    ),
    ReadingNote(
        "§1.2",
        "双八支",
        Text(
            "一门有 8 张或以上，而另一门有两个杠（因此也够八支）。",
            "One suit has 8 or more tiles and another suit has two kongs.",
        ),
    ),
    ReadingNote(
        "§1.2",
        "海底捞月",
        Text(
            "八支玩法中不加分，只作标注。剩 4 张以内不能开杠，所以海底捞月加杠后开花是错误输入。",
            "No score effect in bazhi: shown as a label only. 海底捞月 together with 杠后开花 is an error (no kong "
            "with 4 or fewer tiles left).",
        ),
    ),
    ReadingNote(
        "§1.2",
        "抢杠胡",
        Text("按放铳胡计算，被抢杠者为放铳者。", "Paid as a discard win, the robbed player being the discarder."),
    ),
    ReadingNote(
        "§1.3",
        "底分",
        Text(
            "一个底（每人在一局底中的本钱）：315 为 30，525 为 50。",
            "One 底 (a player's stake in a 底 game) is 30 in 315 and 50 in 525.",
        ),
    ),
    ReadingNote("§1.3", "交分", Text("525 的一交为 50（一个底）。", "One 交 in 525 is 50 (one 底).")),
    ReadingNote(
        "§1.6",
        "包牌",
        Text(
            "“放铳者”即规则中的顶嘴子 / 出冲者：向报警的牌打出胡牌的人；抢杠胡时被抢杠者就是放铳者；自摸时这几种情况不包牌。",
            '"The discarder" is the seed\'s 顶嘴子 / 出冲 player: whoever discards the winning tile into the 报警 '
            "hand; on 抢杠胡 the robbed seat is the discarder; with no discard there is no 包 for those rows.",
        ),
    ),
    ReadingNote(
        "§1.6",
        "报警",
        Text(
            "“三对”指按副露顺序的前三组明牌；补杠算作第四组碰 / 明杠；双八支中明的红中组不算“另一门”；"
            "混一色顶嘴子除红中外至少还要有一组数牌副露。",
            '"Three exposed melds" are the first three exposed melds in meld order; a 补杠 counts as the fourth '
            'pung / 明杠; for 双八支 an exposed 红中 meld is not "another suit"; 混一色顶嘴子 needs at least one '
            "suited exposed meld beside the 红中 one.",
        ),
    ),
    ReadingNote(
        "§1.7",
        "脱底",
        Text(
            "番从底里付：付款者（包牌者也一样）最多付到底里剩下的数。",
            "番 payments come out of the 底: a payer (a 包牌 payer too) pays at most what is left.",
        ),
    ),
)
