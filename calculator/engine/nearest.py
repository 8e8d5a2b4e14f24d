"""One nearest win of a hand that is not one (issue 13 §2): the groups it would be, which of their tiles the hand
holds (a 财神 standing in for some), which it lacks, and the held tiles that do not fit. `distance.py` says how
far the nearest win is; this finds one at that distance, for learners to see.

A standard shape is searched pair first, then sets in a fixed order (each set either keeps a held tile or is a
"free" set of one block, where a kind has room): a branch stops as soon as the tiles it can still keep cannot
reach the distance. The game says which shapes count (bazhi: 八支) through `accept`. Seven pairs and the other
xinyu wins are read straight from the counts (`xinyu/shanten.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .distance import MAX_FORCED, Limits
from .notation import format_tiles
from .tiles import ALL_TILES, BLOCKS, FIRST_HONOUR, NUM_KINDS


@dataclass
class Group:
    """One group of the nearest win: its type ("pair", "sequence", "triplet", or a game's own), its tiles as
    kinds, and per tile how the hand has it: "held", "wild" (a 财神 held stands in), "missing" (a tile of that
    kind to draw) or "drawn" (a 财神 to draw, standing in: a natural tile there would be a fifth copy)."""

    type: str
    kinds: tuple[int, ...]
    filled: list[str] = field(default_factory=list)
    open: int = 0  # places any fitting tile fills (十三不搭, 全风向): not one kind
    wild: int | None = None  # the 财神 kind, which a "drawn" place draws

    def to_dict(self) -> dict:
        places = list(zip(self.kinds, self.filled, strict=True))
        drawn = [self.wild for _, how in places if how == "drawn"]
        return {
            "type": self.type,
            "tiles": _text(self.kinds),
            "missing": _text([k for k, how in places if how == "missing"] + drawn),
            "caishen": [ALL_TILES[k].notation for k, how in places if how in ("wild", "drawn")],
            "open": self.open,
        }


@dataclass
class Nearest:
    """A nearest win: `shape` (standard, qidui, …), its groups, the concealed tiles that do not fit (kinds, with
    repeats; 财神 included when they are left over) and `distance`, the tiles still to draw."""

    shape: str
    groups: list[Group]
    misfits: list[int]
    distance: int

    def to_dict(self) -> dict:
        return {
            "shape": self.shape,
            "distance": self.distance,
            "groups": [group.to_dict() for group in self.groups],
            "misfits": _text(self.misfits),
        }


def _text(kinds) -> str:
    return format_tiles(sorted(ALL_TILES[k] for k in kinds))


def fill(groups: list[Group], natural: Sequence[int], soft: Sequence[int], wild: int, wild_kind: int | None) -> Nearest:
    """Mark each place of the groups: held (a natural tile of the hand, within the kind's natural limit `soft`),
    missing (a natural tile to draw, while the kind has copies left: `soft` again) or, beyond that, forced: only
    a 财神 can fill it. The `wild` 财神 held fill the forced places first, then missing ones; a forced place left
    is a 财神 to draw ("drawn"), so the tiles to draw never make a fifth copy of a kind. The natural tiles left
    over, and 财神 left over, do not fit."""
    left = [min(n, s) for n, s in zip(natural, soft, strict=True)]
    room = list(soft)  # places a natural tile, held or drawn, may still take
    spare = list(natural)
    for group in groups:
        group.filled = []
        group.wild = wild_kind
        for k in group.kinds:
            if left[k] > 0:
                left[k] -= 1
                spare[k] -= 1
                how = "held"
            else:
                how = "missing" if room[k] > 0 else "forced"
            room[k] -= 1
            group.filled.append(how)
    wilds = wild
    for wanted in ("forced", "missing"):  # the 财神 fill places after every natural tile has found its own
        for group in groups:
            for i, how in enumerate(group.filled):
                if how == wanted and wilds:
                    group.filled[i] = "wild"
                    wilds -= 1
    for group in groups:
        group.filled = ["drawn" if how == "forced" else how for how in group.filled]
    misfits = [k for k in range(NUM_KINDS) for _ in range(spare[k])]
    if wild_kind is not None:
        misfits += [wild_kind] * wilds
    missing = sum(how in ("missing", "drawn") for group in groups for how in group.filled)
    return Nearest(shape="", groups=groups, misfits=misfits, distance=missing)


# --------------------------------------------------------------------------- the standard shape

SetChoice = tuple[str, tuple[int, ...]]  # ("sequence" | "triplet", kinds)
FREE_PER_BLOCK = 4  # sets that keep nothing, per block: a far hand may need all of its sets there (八支)


def standard(
    natural: Sequence[int],
    limits: Limits,
    wild: int,
    sets_needed: int,
    distance: int,
    accept: Callable[[list[int]], bool] = lambda slots: True,
    kinds: frozenset[int] = frozenset(range(NUM_KINDS)),
    max_forced: int = MAX_FORCED,
) -> list[Group] | None:
    """A pair and `sets_needed` sets, within `limits`, keeping enough natural tiles that `distance` tiles are left
    to draw (with `wild` 财神 held), with at most `max_forced` forced places (a place only a 财神 fills), whose
    slots per kind `accept` takes; None if there is none."""
    size = 2 + 3 * sets_needed
    to_keep = size - wild - distance  # natural tiles the shape must keep
    hard, soft = limits
    keep_limit = [min(n, s) for n, s in zip(natural, soft, strict=True)]
    slots = [0] * NUM_KINDS
    state = {"kept": 0, "forced": 0}

    def add(group: tuple[int, ...]) -> bool:
        for k in group:
            slots[k] += 1
            if slots[k] <= keep_limit[k]:
                state["kept"] += 1
            if slots[k] > soft[k]:
                state["forced"] += 1
        if any(slots[k] > hard[k] for k in group) or state["forced"] > max_forced:
            remove(group)
            return False
        return True

    def remove(group: tuple[int, ...]) -> None:
        for k in group:
            if slots[k] <= keep_limit[k]:
                state["kept"] -= 1
            if slots[k] > soft[k]:
                state["forced"] -= 1
            slots[k] -= 1

    choices = _set_choices(natural, hard, kinds)
    best_from = [keep for keep, _ in choices]  # the most a set from i on can keep (the list is most kept first)
    chosen: list[SetChoice] = []

    def sets_from(start: int) -> bool:
        left = sets_needed - len(chosen)
        if state["kept"] + left * (best_from[start] if start < len(choices) else 0) < to_keep:
            return False
        if not left:
            return state["kept"] >= to_keep and accept(slots)
        for i in range(start, len(choices)):
            kind, group = choices[i][1]
            if add(group):
                chosen.append((kind, group))
                if sets_from(i):
                    return True
                chosen.pop()
                remove(group)
        return False

    pairs = sorted((k for k in kinds), key=lambda k: (-min(natural[k], 2), k))
    for pair in pairs:
        if add((pair, pair)):
            if sets_from(0):
                return [Group(type="pair", kinds=(pair, pair))] + [
                    Group(type=kind, kinds=group) for kind, group in sorted(chosen, key=_first)
                ]
            remove((pair, pair))
    return None


def _first(choice: SetChoice) -> int:
    return choice[1][0]


def _set_choices(natural: Sequence[int], hard: Sequence[int], kinds: frozenset[int]) -> list[tuple[int, SetChoice]]:
    """The sets worth trying, each with the most it can keep: every set that keeps a held tile, most kept first,
    then triplets of kinds the hand does not hold, a few per block (a set that keeps nothing stands as well there
    as anywhere in its block)."""
    keeping: list[tuple[int, SetChoice]] = []
    for k in sorted(kinds):
        if natural[k]:
            keeping.append((min(natural[k], 3), ("triplet", (k, k, k))))
    for base, size, sequences in BLOCKS:
        if not sequences:
            continue
        for first in range(base, base + size - 2):
            group = (first, first + 1, first + 2)
            if all(k in kinds for k in group) and any(natural[k] for k in group):
                keeping.append((sum(1 for k in group if natural[k]), ("sequence", group)))
    keeping.sort(key=lambda item: -item[0])
    free = []
    for base, size, _ in BLOCKS:
        empty = [k for k in range(base, base + size) if k in kinds and not natural[k] and hard[k] >= 3]
        free += [(0, ("triplet", (k,) * 3)) for k in empty[:FREE_PER_BLOCK]]
    return keeping + free


# --------------------------------------------------------------------------- other shapes


def pairs(natural: Sequence[int], wild: int, wild_kind: int, count: int = 7) -> Nearest:
    """七对: whole pairs first (four alike are two), then single tiles waiting for their mate."""
    groups: list[Group] = []
    for k in range(NUM_KINDS):
        for _ in range(natural[k] // 2):
            if len(groups) < count:
                groups.append(Group(type="pair", kinds=(k, k)))
    for k in range(NUM_KINDS):
        if natural[k] % 2 and len(groups) < count:
            groups.append(Group(type="pair", kinds=(k, k)))
    return _with_free(groups, natural, wild, wild_kind, count, "qidui")


def _with_free(groups: list[Group], natural, wild: int, wild_kind: int, count: int, shape: str) -> Nearest:
    """Pairs still to make (any kind the hand does not hold: shown as missing), then the tiles filled in."""
    held = {g.kinds[0] for g in groups}
    free = (k for k in range(NUM_KINDS) if k not in held and k != wild_kind and not natural[k])
    while len(groups) < count:
        k = next(free)
        groups.append(Group(type="pair", kinds=(k, k)))
    found = fill(groups, natural, [4] * NUM_KINDS, wild, wild_kind)
    found.shape = shape
    return found


def kept_tiles(
    shape: str, kept: Sequence[int], natural: Sequence[int], wild: int, wild_kind: int, size: int
) -> Nearest:
    """A win that is no set of groups (十三不搭, 全风向): the natural tiles it keeps (kinds, with repeats) and the
    财神 held as one group, the other places open to any tile that fits; the other natural tiles do not fit."""
    wilds = min(wild, size - len(kept))
    group = Group(
        type=shape, kinds=(*sorted(kept), *(wild_kind,) * wilds), filled=["held"] * len(kept) + ["wild"] * wilds
    )
    group.open = size - len(kept) - wilds
    spare = list(natural)
    for k in kept:
        spare[k] -= 1
    misfits = [k for k in range(NUM_KINDS) for _ in range(spare[k])] + [wild_kind] * (wild - wilds)
    return Nearest(shape=shape, groups=[group], misfits=misfits, distance=group.open)


def silong(natural: Sequence[int], wild: int, wild_kind: int, size: int) -> Nearest:
    """4龙: four 财神 (the ones not held are missing) and any other tiles; beyond size − 4 of them do not fit."""
    held = min(wild, 4)
    group = Group(type="silong", kinds=(wild_kind,) * 4, filled=["wild"] * held + ["missing"] * (4 - held))
    rest = [k for k in range(NUM_KINDS) for _ in range(natural[k])]
    others = Group(type="rest", kinds=tuple(rest[: size - 4]), filled=["held"] * len(rest[: size - 4]))
    others.open = max(0, size - 4 - len(rest))
    return Nearest(
        shape="silong",
        groups=[group, others],
        misfits=rest[size - 4 :] + [wild_kind] * (wild - held),
        distance=4 - held + others.open,
    )


def honours_of(natural: Sequence[int]) -> list[int]:
    return [k for k in range(FIRST_HONOUR, NUM_KINDS) for _ in range(natural[k])]
