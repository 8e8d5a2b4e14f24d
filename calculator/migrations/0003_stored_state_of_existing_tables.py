"""Existing tables get card version 1 from their options (every house rule at its default), their entries are
numbered 1, 2, 3 … in their order, and each entry and table gets the account the ledger computes for it."""

from django.db import migrations


def stored_state(apps, schema_editor):
    from calculator import ledger
    from calculator.engine.rulesets import RULESETS

    Table, Card = apps.get_model("calculator", "Table"), apps.get_model("calculator", "Card")
    Hand, Event = apps.get_model("calculator", "Hand"), apps.get_model("calculator", "Event")
    for table in Table.objects.all():
        options = ledger.parse_options(RULESETS[table.ruleset], table.options)
        card = ledger.Card(table.ruleset, options, table.stake, table.multiplier, 1)
        Card.objects.create(table=table, version=1, options=options, stake=card.stake, multiplier=card.multiplier)
        state = ledger.start(ledger.TableConfig(card, table.players, table.first_dealer))
        rows = sorted([*Hand.objects.filter(table=table), *Event.objects.filter(table=table)], key=lambda r: r.seq)
        for row in rows:  # free the numbers 1 … n first: (table, seq) is unique
            row.seq = -row.seq
            row.save(update_fields=["seq"])
        for number, row in enumerate(rows, start=1):
            if isinstance(row, Hand):
                entry = {"kind": "hand", "result": row.result}
            else:
                entry = {"kind": row.kind, "seat": row.seat}
            applied = ledger.apply(state, entry)
            row.seq, row.rows, row.applied = number, applied["rows"], applied["applied"]
            row.after = {**state.to_dict(), "version": table.version}
            row.save(update_fields=["seq", "rows", "applied", "after"])
        table.state = state.to_dict()
        table.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [
        ("calculator", "0002_cards_and_stored_state"),
    ]

    operations = [migrations.RunPython(stored_state, migrations.RunPython.noop)]
