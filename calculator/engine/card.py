"""`HouseCard`: the house rules of one request or table with their values (RULES.md §5, `options.house`)."""

from __future__ import annotations

from .frozen import FrozenDict

JsonValue = str | bool | int | None


class HouseCard(FrozenDict):
    """Every house rule of one ruleset with its value, in the ruleset's order: `HouseCard(((rule_id, value), …))`.

    A dict nobody can change (`FrozenDict`), and hashable, so remembered answers and lines can be keyed on it. The
    rules read it as any mapping (`card["haidi"]`), a dict's own look-up.
    """

    __slots__ = ("_hash",)

    def __hash__(self) -> int:
        """Worked out on first use and kept: the options holding the card are looked up by it once a request."""
        try:
            return self._hash
        except AttributeError:
            self._hash = hash(frozenset(self.items()))
            return self._hash

    def replace(self, rule_id: str, value: JsonValue) -> HouseCard:
        """The same card with one rule set to `value`."""
        return HouseCard({**self, rule_id: value})

    def to_dict(self) -> dict[str, JsonValue]:
        return dict(self)

    def __copy__(self) -> HouseCard:
        return self  # nobody can change it

    def __deepcopy__(self, memo) -> HouseCard:
        return self

    def __reduce__(self):
        return (HouseCard, (dict(self),))

    def __repr__(self) -> str:
        return f"HouseCard({tuple(self.items())!r})"
