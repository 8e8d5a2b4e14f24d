"""The trainer's question "who takes this discard?" (issue 29): two or three players claim one discard; the learner
taps the seat that takes it. Dealt from the seed like every question (each claimant's hand a game's own deal,
the discard a tile all of their winning hands hold), answered by the engine's claims (calculator.engine.claims:
the game's `[claims]`, xinyu's 拦胡 levels, bazhi's play order), and explained by the page of who takes the
discard (presentation/claims/: its answer, the taking win's result card). No game is named here.
"""

from __future__ import annotations

from collections import Counter
from random import Random

from calculator.engine.claims import priority
from calculator.engine.notation import format_tiles, parse_tiles
from calculator.engine.rulesets import RULESETS
from calculator.engine.seats import Seats, previous_seat, seats_after, seats_of

from ..claims.fields import ClaimsInput, claims_query, parse_claims
from ..handquery import Fields, HandInput

THREE_CLAIMS = 0.3  # the share of questions with three claims, where the table has room for them
FAVOURED = 0.6  # the share of questions where the farthest claimant is dealt for a pattern that ranks above others
DEALS = 8  # deals tried for each claimant's hand


def deal_claims(
    rng: Random, game: str, favour: str | None, seats: Seats, lang: str = "zh"
) -> tuple[dict, dict, tuple] | None:
    """Claims on one discard dealt from `rng` at a table of `seats` (the `/api/priority` body), the engine's answer
    and the topics (the patterns that give the winning claims their level), or None when the deal makes no
    question (the claims share no tile, hold a fifth copy, or fewer than two of them win)."""
    ruleset = RULESETS[game]
    if len(seats) < 3:  # two claimants and a discarder: a table of two is dealt as the game's largest table
        seats = seats_of(max(ruleset.table_sizes))
    discarder = rng.choice(seats)
    after = seats_after(discarder, seats)
    count = 3 if len(after) > 2 and rng.random() < THREE_CLAIMS else 2
    claimants = sorted(rng.sample(after, count), key=after.index)
    ranking = [code for level in ruleset.claims.levels for code in level.patterns]
    if favour is None and ranking and rng.random() < FAVOURED:
        favour = rng.choice(ranking)
    deals: list[dict] = []
    for n in range(count):  # each claimant's hand: a deal that shares a tile with the others and no fifth copy
        for _attempt in range(DEALS):
            dealt = ruleset.deal(rng, favour if n == count - 1 else None, seats)
            if discards([*deals, dealt]):
                deals.append(dealt)
                break
        else:
            return None
    tile = rng.choice(discards(deals))
    options = deals[0]["options"]  # one card for all (its players: the table's)
    dealer = rng.choice(seats)
    claims = []
    for seat, dealt in zip(claimants, deals, strict=True):
        held = list(parse_tiles(dealt["hand"] + dealt["win_tile"]))
        held.remove(next(t for t in held if t.notation == tile))
        melds = [{**meld, "from": previous_seat(seat, seats)} if "from" in meld else meld for meld in dealt["melds"]]
        claims.append(
            {"options": options, "hand": format_tiles(held), "melds": melds, "winner": seat, "dealer": dealer}
        )
    body = {"ruleset": game, "discarder": discarder, "tile": tile, "claims": claims}
    answer = priority(body, lang)
    if "error" in answer or sum(claim["win"] for claim in answer["claims"]) < 2:
        return None
    topics = tuple(code for claim in answer["claims"] if claim["win"] for code in claim["level_patterns"])
    return body, answer, topics


def discards(deals: list[dict]) -> list[str]:
    """The tiles every dealt hand could claim (a tile of each winning hand's concealed part) without the hands
    holding a fifth copy of a kind together (the discard counted once)."""
    concealed = [Counter(t.notation for t in parse_tiles(d["hand"] + d["win_tile"])) for d in deals]
    total = sum(concealed, Counter())
    for dealt in deals:
        for meld in dealt["melds"]:
            total.update(t.notation for t in parse_tiles(meld["tiles"]))
    found = []
    for tile in sorted(set.intersection(*(set(counts) for counts in concealed))):
        counts = total.copy()
        counts[tile] -= len(deals) - 1  # every claim holds the one discard
        if max(counts.values()) <= 4:
            found.append(tile)
    return found


def claims_input(body: dict) -> ClaimsInput:
    """A dealt body as the page of who takes the discard reads its fields (what it shows and explains with): each
    claim the calculator's hand under its seat, read back from the page's own link."""
    first = body["claims"][0]
    shared = {"ruleset": body["ruleset"], "options": first["options"], "hand": "", "melds": [], "winner": ""}
    shared |= {"dealer": first["dealer"], "discarder": body["discarder"], "flags": []}
    hands = [(claim["winner"], HandInput({**shared, **claim, "flags": []}, {})) for claim in body["claims"]]
    return parse_claims(Fields.of(claims_query(ClaimsInput(HandInput(shared, {}), body["tile"], hands))))
