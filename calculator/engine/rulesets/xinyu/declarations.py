"""xinyu's facts as data (RULES.md §2, §5.2): options, flags, house rules, the 龙 bonuses and their values,
readings and the names the answer gives its codes. Everything else of the program reads these; the scoring
functions beside this module use them too."""

from __future__ import annotations

from ...text import Text
from ...tiles import NUM_KINDS
from ..declarations import Choice, HouseRule, Option, Pattern, PatternGroup, ReadingNote
from ..flags import DISCARDER_DEALER, NOT_EARTHLY, NOT_LIABLE, flag

ID = "xinyu"
TITLE = Text("新余冲击麻将", "Xinyu")
SUMMARY = Text(
    "136 张，可以吃（只能吃上家）。番型加龙，全部累加。",
    "136 tiles, chows allowed (from the player before you only). Patterns add 龙; all of them add up.",
)
KINDS = frozenset(range(NUM_KINDS))  # all 34 kinds: 136 tiles

MAX_DEALER_STREAK = 99
ROOM_STAKES = (100, 200, 500)  # §2.6: the 冲击 room's stake

OPTIONS = (
    Option("caishen", Text("财神", "Wild tile (财神)"), "tile", per_hand=True),
    Option("indicator", Text("翻出的牌", "Turned indicator tile"), "tile", per_hand=True),
    Option(
        "dealer_streak",
        Text("连庄", "Dealer streak"),
        "int",
        1,
        minimum=1,
        maximum=MAX_DEALER_STREAK,
        per_hand=True,
    ),
)

FLAGS = (
    flag("kong_bloom", "§2.3"),
    flag("double_kong_bloom", "§2.3"),
    flag("robbing_kong", "§2.4"),
    flag("last_tile", "§2.3"),
    flag("heavenly", "§2.3"),
    # 地胡 is won on the dealer's first discard; 包牌 needs the last four tiles, so never on the first go-around
    flag("earthly", "§2.3", DISCARDER_DEALER, NOT_LIABLE),
    flag("pao_long", "§2.3"),
    flag("liable_caishen", "§2.4", NOT_EARTHLY),
)

HOUSE = (
    HouseRule(
        "wild_fifth_copy",
        Text("财神当第五张", "财神 as a fifth copy"),
        (Choice(True, Text("可以", "allowed")), Choice(False, Text("不可以", "not allowed"))),
        Text(
            "选“不可以”：一种牌的张数（暗牌、胡的牌、自己的副露，加上当它用的财神）最多 4 张。",
            "“not allowed”: the copies of a kind (concealed, win tile, own melds, and the 财神 standing for it) are "
            "at most 4.",
        ),
        "§5.2",
        example={
            "options": {"caishen": "5p"},
            "hand": "1111m234p567p789s",
            "win_tile": "5p",
            "melds": [],
            "winner": "S",
            "dealer": "E",
            "discarder": "W",
            "flags": [],
        },
    ),
    HouseRule(
        "qingqidui",
        Text("清七对", "清七对 (pure seven pairs)"),
        (
            Choice("replaces", Text("代替清一色", "replaces 清一色")),
            Choice("with_qingyise", Text("另加清一色", "plus 清一色")),
        ),
        Text(
            "选“另加清一色”：清七对 +10 和清一色 +10 都算（对对碰的 +1 仍不算）。",
            "“plus 清一色”: 清七对 +10 and 清一色 +10 both count (对对碰's +1 still does not).",
        ),
        "§5.2",
        example={
            "options": {"caishen": "5p"},
            "hand": "1122334455779s",
            "win_tile": "9s",
            "melds": [],
            "winner": "S",
            "dealer": "E",
            "discarder": None,
            "flags": [],
        },
    ),
    HouseRule(
        "qifengqi_wild",
        Text("七风齐用财神", "七风齐 with 财神"),
        (Choice(False, Text("须本牌", "natural honours only")), Choice(True, Text("财神可补", "财神 may fill in"))),
        Text(
            "选“财神可补”：缺的字牌可以用财神代替（财神本身是字牌时仍不成立）。",
            "“财神 may fill in”: 财神 may stand for the missing honours (still impossible when the 财神 is an honour).",
        ),
        "§5.2",
        example={
            "options": {"caishen": "1m"},
            "hand": "ESWNCF147p258s3m",
            "win_tile": "1m",
            "melds": [],
            "winner": "N",
            "dealer": "E",
            "discarder": "E",
            "flags": [],
        },
    ),
    HouseRule(
        "shapeless_colours",
        Text("无牌型算色", "Colours without a shape"),
        (Choice(True, Text("算", "count")), Choice(False, Text("不算", "do not count"))),
        Text(
            "选“不算”：没有牌型的 4龙只算 4龙和标记加龙，不算混一色 / 清一色。",
            "“do not count”: a 4龙 win without a legal shape scores no 混一色 / 清一色 (only 4龙 and the flags).",
        ),
        "§5.2",
        example={
            "options": {"caishen": "S"},
            "hand": "34889sESSSCFFP",
            "win_tile": "S",
            "melds": [],
            "winner": "N",
            "dealer": "N",
            "discarder": None,
            "flags": [],
        },
    ),
    HouseRule(
        "qianggang",
        Text("抢杠胡", "抢杠胡 (robbing a kong)"),
        (
            Choice("halves", Text("P + 2 × (P ÷ 2)", "P + 2 × (P ÷ 2)")),
            Choice("triple", Text("3 × P", "3 × P")),
        ),
        Text(
            "选“3 × P”：被抢杠者付 3 × P（同时有包牌标记时按抢杠胡算）。",
            "“3 × P”: the robbed seat pays 3 × P (抢杠胡 decides when the liable flag is set too).",
        ),
        "§5.2",
        example={
            "options": {"caishen": "5p"},
            "hand": "123m456m789sEEE5p",
            "win_tile": "2s",
            "melds": [],
            "winner": "W",
            "dealer": "E",
            "discarder": "S",
            "flags": ["robbing_kong"],
        },
    ),
    HouseRule(
        "dilong",
        Text("底龙", "底龙 (table base)"),
        (
            Choice("table", Text("不论谁胡", "whoever wins")),
            Choice("dealer_only", Text("庄家胡才加连庄", "the streak only when the dealer wins")),
        ),
        Text(
            "选“庄家胡才加连庄”：只有庄家胡时底龙 = 11 + 10 × (连庄 − 1)，闲家胡时底龙是 11。",
            "“the streak only when the dealer wins”: 底龙 = 11 + 10 × (streak − 1) only when the dealer wins; 11 "
            "when another seat wins.",
        ),
        "§5.2",
        example={
            "options": {"caishen": "5p", "dealer_streak": 2},
            "hand": "123m456m789sEEE2s",
            "win_tile": "2s",
            "melds": [],
            "winner": "S",
            "dealer": "E",
            "discarder": "W",
            "flags": [],
        },
    ),
    HouseRule(
        "draw_dealer",
        Text("流局庄家", "Dealer after a drawn hand"),
        (Choice("keep", Text("连庄", "keeps the deal")), Choice("pass", Text("下庄", "passes the deal"))),
        Text(
            "只影响牌桌记账：选“下庄”时流局后由庄家的下家坐庄，连庄数从 1 开始。",
            "The ledger only: “passes the deal” gives the deal to the dealer's 下家 after a drawn hand, streak 1.",
        ),
        "§5.2",
        scoring=False,
    ),
)

# The 龙 bonuses of §2.3, by the codes of the answer's `patterns`, in the order the answer lists them.
BONUSES = (
    Pattern(
        "qidui",
        Text("对对碰（七对）", "Seven pairs"),
        Text("+1", "+1"),
        Text("七个对子，没有副露；四张相同算两对。", "Seven pairs, no melds; four of a kind counts as two pairs."),
        "1122m 3344p 5566s EE",
    ),
    Pattern(
        "shisanbuda",
        Text("十三不搭", "Thirteen unrelated"),
        Text("+1", "+1"),
        Text(
            "14 张各不相同；同一门任两张相差 3 或以上；字牌各不相同。",
            "14 tiles, no two alike; ranks of a suit differ by 3 or more; honours distinct.",
        ),
        "147m 258p 369s ESWNC",
    ),
    Pattern(
        "qifengqi",
        Text("七风齐", "All seven honours"),
        Text("再 +1", "+1 more"),
        Text("十三不搭，且东南西北中发白七张都是本牌。", "十三不搭 with all seven honours as natural tiles."),
        "147m 25p 36s ESWNCFP",
    ),
    Pattern(
        "hunyise",
        Text("混一色", "One suit with honours"),
        Text("+1", "+1"),
        Text("数牌全是同一门，且至少一张字牌。", "All suited tiles of one suit and at least one honour."),
        "123456789m EEE NN",
    ),
    Pattern(
        "daduidui",
        Text("大对对", "All triplets"),
        Text("+1", "+1"),
        Text("普通牌型，每组都是刻子或杠。", "Standard shape, every set a triplet or kong."),
        "111m 333p 555s EEE CC",
    ),
    Pattern(
        "qingyise",
        Text("清一色", "Pure one suit"),
        Text("+10", "+10"),
        Text("全是同一门。", "Every tile of one suit."),
        "11123456789s 99s",
    ),
    Pattern(
        "qingqidui",
        Text("清七对", "Pure seven pairs"),
        Text("+10", "+10"),
        Text("同一门的七对（代替对对碰和清一色）。", "Seven pairs of one suit (replaces 对对碰 and 清一色)."),
        "11335577p 2244p 99p",
    ),
    Pattern(
        "tianhu",
        Text("天胡", "Heavenly hand"),
        Text("+10", "+10"),
        Text("庄家起手即胡。", "The dealer wins on the dealt hand."),
    ),
    Pattern(
        "dihu",
        Text("地胡", "Earthly hand"),
        Text("+10", "+10"),
        Text("闲家胡庄家打出的第一张牌。", "A non-dealer wins on the dealer's first discard."),
    ),
    Pattern(
        "gangbao",
        Text("杠爆", "Win on a kong replacement"),
        Text("+10", "+10"),
        Text("开杠后补牌自摸。", "Self-drawn on a kong's replacement tile."),
    ),
    Pattern(
        "haidi",
        Text("海底捞月", "Last tile"),
        Text("+10", "+10"),
        Text("自摸最后一张牌。", "Self-draw of the last tile."),
    ),
    Pattern(
        "dandiao",
        Text("单吊", "Single wait after four melds"),
        Text("+10", "+10"),
        Text("四组副露，手里只剩一张，胡它的对子。", "Four melds and one concealed tile, won by pairing it."),
    ),
    Pattern(
        "paolong",
        Text("抛龙", "Passed self-draw"),
        Text("+10", "+10"),
        Text("先放弃一次自摸，之后再自摸胡。", "Self-draw after passing an earlier self-drawn win."),
    ),
    Pattern(
        "silong",
        Text("4龙", "Four wild tiles"),
        Text("+10（成牌型再 +10）", "+10 (+10 more with a legal shape)"),
        Text("四个财神，只能自摸。", "Four 财神, self-draw only."),
    ),
    Pattern(
        "quanfeng",
        Text("全风向", "All honours"),
        Text("+50", "+50"),
        Text("全是字牌；不论牌型都能胡。", "Every tile an honour; wins with any shape."),
        "EEE SSS WWW NN CCC",
    ),
)
BONUS_BY_CODE = {pattern.code: pattern for pattern in BONUSES}

BASICS = (
    Pattern(
        "caishen",
        Text("财神（龙）", "Wild tile"),
        Text("每个 +1 龙；无龙算 2 龙", "+1 龙 each; none = 2"),
        Text(
            "翻出的牌的下一张即财神。暗牌中每个财神是 1 龙；没有财神算 2 龙（无龙算2龙）。",
            "The tile after the turned indicator. Each 财神 in the concealed hand is one 龙; with none the hand "
            "counts 2 (无龙算2龙).",
        ),
    ),
    Pattern(
        "shunhu",
        Text("顺胡", "Plain win"),
        Text("0", "0"),
        Text("普通胡牌，没有其它番型。", "A standard win with nothing else."),
        "123m 456p 789s 234s 55m",
    ),
)

MONEY = (
    Pattern(
        "di_long",
        Text("底龙", "Table base"),
        Text("11 + 10 × (连庄 − 1)", "11 + 10 × (streak − 1)"),
        Text("首次坐庄 11，二老庄 21，三老庄 31 …", "First-time dealer 11, 二老庄 21, 三老庄 31 …"),
    ),
    Pattern(
        "unit",
        Text("每份 P", "Payment unit"),
        Text("P = 底龙 + 龙", "P = 底龙 + 龙"),
        Text("龙 = 财神数（或 2）+ 所有加龙。", "龙 = 财神 count (or 2) + every bonus."),
    ),
    Pattern(
        "zimo",
        Text("自摸", "Self-draw"),
        Text("每家付 P", "each pays P"),
        Text("杠爆、海底、天胡、抛龙、4龙同样。", "Also 杠爆, 海底, 天胡, 抛龙, 4龙."),
    ),
    Pattern(
        "fangchong",
        Text("放铳", "Discard"),
        Text("P，另两家各 P ÷ 2", "P and P ÷ 2, P ÷ 2"),
        Text(
            "放铳者付 P；另两家各付一半，四舍五入。", "The discarder pays P; the two others pay half, rounded half up."
        ),
    ),
    Pattern(
        "bao",
        Text("抢杠胡 / 包牌", "Robbing a kong / liable discard"),
        Text("P + 2 × (P ÷ 2)", "P + 2 × (P ÷ 2)"),
        Text(
            "被抢杠者，或最后四张中手握财神还放铳的人，替三家付钱。",
            "The robbed player, or the discarder who fed a 财神 late in the hand, pays for all.",
        ),
    ),
)

PATTERN_GROUPS = (
    PatternGroup(Text("加龙", "龙 bonuses"), ("§2.1", "§2.2", "§2.3"), (*BASICS, *BONUSES)),
    PatternGroup(Text("谁付钱", "Who pays"), ("§2.4", "§2.5", "§2.6"), MONEY),
)

SHAPE_NAMES = {
    "standard": Text("基本牌型", "standard shape"),
    "qidui": Text("七对", "seven pairs"),
    "shisanbuda": Text("十三不搭", "thirteen unrelated"),
    "none": Text("无需牌型", "no shape needed"),
}

# Who pays for all, by the answer's `bao_reason`.
BAO_REASONS = {
    "qianggang": Text("抢杠胡：被抢杠者独缴", "robbing a kong: the robbed player pays for all"),
    "baopai": Text("包牌：放铳者手握财神还放铳，替三家付", "liable discard: the discarder pays for all"),
}

LABELS = {
    "shunhu": (Text("顺胡", "plain win"), Text("基本牌型胡牌，无加龙", "a plain standard win: no bonus")),
    "quanjiao": (
        Text("全缴", "takes all"),
        Text(
            "全风向且有牌型：冲击房间里其他三家交出全部基本分",
            "all honours with a shape: in a 冲击 room every other player pays all they have left",
        ),
    ),
    "qianggang": (Text("抢杠胡", "robbing a kong"), Text("被抢杠者独缴三家", "the robbed player pays for all three")),
}

READINGS = (
    ReadingNote(
        "§2.3",
        "七风齐",
        Text(
            "财神是字牌时不可能成立：规则把七种字牌都称作风牌，且必须是本牌。",
            "Impossible when the 财神 kind is an honour: the seed calls all seven honours 风牌, and they must be "
            "natural tiles.",
        ),
    ),
    ReadingNote(
        "§2.3",
        "清七对",
        Text("+10，并代替对对碰（+1）和清一色（+10）。", "Worth +10 and replaces both 对对碰 (+1) and 清一色 (+10)."),
    ),
    ReadingNote(
        "§2.3",
        "单吊",
        Text(
            "四组副露、手里剩一张，胡它的对子（盛下一张牌胡牌）：+10。",
            "Four melds and one concealed tile, won by pairing it (盛下一张牌胡牌): +10.",
        ),
    ),
    ReadingNote(
        "§2.4", "底龙", Text("底龙是本手牌桌的底数，不论谁胡。", "底龙 is the table's base for the hand, whoever wins.")
    ),
    ReadingNote(
        "§2.4",
        "抢杠胡",
        Text(
            "被抢杠者独缴：P + 2 × (P ÷ 2，四舍五入)，按规则中包牌的例子（13 + 7 + 7）理解，而不是 3 × P。",
            "The robbed player pays for all: P + 2 × (P ÷ 2, rounded), read like the seed's 包牌 example "
            "(13 + 7 + 7), not 3 × P.",
        ),
    ),
    ReadingNote(
        "§2.6",
        "离场",
        Text(
            "真实牌桌上，中途离场的罚分给其余三家：每家得罚分 ÷ 3 向下取整，余数给离场者之后按出牌顺序的第一家。",
            "At a real table a leaving penalty goes to the other three: each gets the penalty ÷ 3 rounded down, the "
            "remainder to the first of them in play order after the leaver.",
        ),
    ),
    ReadingNote(
        "§2.6", "流局", Text("流局时庄家不变，连庄数不变。", "On a drawn hand the dealer stays, with the same streak.")
    ),
)
