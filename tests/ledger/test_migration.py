"""Tables stored before rule cards and the stored account (migration 0002) come through with card version 1,
their entries numbered 1, 2, 3 … and the account the ledger computes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from calculator.engine import score
from calculator.engine.rulesets import RULESETS
from tests.ledger.hands import B1, B2

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE, AFTER = [("calculator", "0001_ledger")], [("calculator", "0004_cards_only_and_indexes")]


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    executor.loader.build_graph()
    return executor.loader.project_state(target).apps


def test_an_old_table_gets_its_card_and_account():
    old = migrate(BEFORE)
    Table, Hand, Event = (old.get_model("calculator", name) for name in ("Table", "Hand", "Event"))
    table = Table.objects.create(
        id="old-table",
        edit_token_hash="x" * 64,
        ruleset="bazhi",
        options={"tariff": "315", "multi_jiao": False},
        players={"E": "阿东", "S": "小南", "W": "老西", "N": "北北"},
        stake=30,
        multiplier=1,
        first_dealer="E",
        seq=6,
    )
    first = score({**B1, "ruleset": "bazhi", "dealer": "E"})
    Hand.objects.create(table=table, n=1, seq=2, request={}, result=first, applied={})  # seq 1 was undone
    Event.objects.create(table=table, seq=4, kind="draw", applied={})
    second = score({**B2, "ruleset": "bazhi", "dealer": "W"})
    Hand.objects.create(table=table, n=2, seq=6, request={}, result=second, applied={})
    new = migrate(AFTER)
    table = new.get_model("calculator", "Table").objects.get(pk="old-table")
    card = new.get_model("calculator", "Card").objects.get(table=table)
    assert (card.version, card.stake, card.multiplier) == (1, 30, 1)
    house = RULESETS["bazhi"].default_card.to_dict()
    assert card.options == {"tariff": "315", "multi_jiao": False, "players": 4, "house": house}  # a table of four
    hands = list(new.get_model("calculator", "Hand").objects.filter(table=table).order_by("seq"))
    [draw] = new.get_model("calculator", "Event").objects.filter(table=table)
    assert [h.seq for h in hands] == [1, 3] and draw.seq == 2
    assert hands[0].applied == {"E": -7, "S": 19, "W": -7, "N": -5} and hands[0].after["dealer"] == "S"
    assert table.version == 6 and table.state["hands_total"] == 2 and table.state["events_total"] == 1
    assert table.state["totals"] == hands[1].after["totals"] and sum(table.state["totals"].values()) == 0
