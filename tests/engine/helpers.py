"""Small builders so each rule test states only what matters to its rule."""

from __future__ import annotations

from calculator.engine import score


def bazhi(
    hand: str, win: str | None, *, melds=(), winner="S", dealer="E", discarder=None, flags=(), tariff="315", multi=False
) -> dict:
    request = {
        "ruleset": "bazhi",
        "options": {"tariff": tariff, "multi_jiao": multi},
        "hand": hand,
        "win_tile": win,
        "melds": [dict(m) for m in melds],
        "winner": winner,
        "dealer": dealer,
        "discarder": discarder,
        "flags": list(flags),
    }
    return score(request)


def pung(tiles: str, feeder: str) -> dict:
    return {"type": "pung", "tiles": tiles, "from": feeder}


def kong(tiles: str, feeder: str | None = None, kind: str | None = None) -> dict:
    if feeder is None:
        return {"type": kind or "kong_concealed", "tiles": tiles}
    return {"type": kind or "kong_exposed", "tiles": tiles, "from": feeder}


def error_code(result: dict) -> str | None:
    return result.get("error", {}).get("code")
