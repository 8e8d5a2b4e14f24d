"""`HouseCard`: the house rules of one request or table with their values (RULES.md §5, `options.house`)."""

from __future__ import annotations

JsonValue = str | bool | int | None


class HouseCard(dict):
    """Every house rule of one ruleset with its value, in the ruleset's order: a plain mapping the rules read as
    any dict (`card["haidi"]`). Each request reads its own card (`Ruleset.read_card`); nothing changes it once
    read: another reading is another card (`replace`)."""

    __slots__ = ()

    def replace(self, rule_id: str, value: JsonValue) -> HouseCard:
        """The same card with one rule set to `value`."""
        return HouseCard({**self, rule_id: value})

    def to_dict(self) -> dict[str, JsonValue]:
        return dict(self)
