"""`HouseCard`: the house rules of one request or table with their values (RULES.md §5, `options.house`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

JsonValue = str | bool | int | None


@dataclass(frozen=True, slots=True)
class HouseCard(Mapping):
    """Every house rule of one ruleset with its value, in the ruleset's order.

    Immutable and hashable, so remembered answers and lines can be keyed on it.
    """

    values: tuple[tuple[str, JsonValue], ...]

    def __getitem__(self, key: str) -> JsonValue:
        for rule_id, value in self.values:
            if rule_id == key:
                return value
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (rule_id for rule_id, _ in self.values)

    def __len__(self) -> int:
        return len(self.values)

    def replace(self, rule_id: str, value: JsonValue) -> HouseCard:
        """The same card with one rule set to `value`."""
        return HouseCard(tuple((key, value if key == rule_id else old) for key, old in self.values))

    def to_dict(self) -> dict[str, JsonValue]:
        return dict(self.values)
