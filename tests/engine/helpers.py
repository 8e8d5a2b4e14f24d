"""Small builders so each rule test states only what matters to its rule."""

from __future__ import annotations

from calculator.engine import score


def hand_request(
    ruleset: str,
    options: dict,
    hand: str,
    win: str | None,
    *,
    melds=(),
    winner="S",
    dealer="E",
    discarder=None,
    flags=(),
) -> dict:
    """An API.md request dict: what both rulesets' tests build, in one place."""
    return {
        "ruleset": ruleset,
        "options": options,
        "hand": hand,
        "win_tile": win,
        "melds": [dict(m) for m in melds],
        "winner": winner,
        "dealer": dealer,
        "discarder": discarder,
        "flags": list(flags),
    }


def bazhi(hand: str, win: str | None, *, tariff="315", multi=False, **context) -> dict:
    return score(hand_request("bazhi", {"tariff": tariff, "multi_jiao": multi}, hand, win, **context))


def xinyu(hand: str, win: str | None, *, caishen: str = "5p", streak: int = 1, lang: str = "zh", **context) -> dict:
    return score(hand_request("xinyu", {"caishen": caishen, "dealer_streak": streak}, hand, win, **context), lang)


def pung(tiles: str, feeder: str) -> dict:
    return {"type": "pung", "tiles": tiles, "from": feeder}


def kong(tiles: str, feeder: str | None = None, kind: str | None = None) -> dict:
    if feeder is None:
        return {"type": kind or "kong_concealed", "tiles": tiles}
    return {"type": kind or "kong_exposed", "tiles": tiles, "from": feeder}


def error_code(result: dict) -> str | None:
    return result.get("error", {}).get("code")
