"""Rule cards with versions, and the account stored beside the hands (issues 12 and 15).

Existing tables get card version 1 from their options (every house rule at its default), their entries are
numbered 1, 2, 3 … in their order, and each entry and table gets the account the ledger computes for it.
"""

import django.db.models.deletion
from django.db import migrations, models


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
        ("calculator", "0001_ledger"),
    ]

    operations = [
        migrations.CreateModel(
            name="Card",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("version", models.IntegerField()),
                ("options", models.JSONField()),
                ("stake", models.IntegerField(blank=True, null=True)),
                ("multiplier", models.IntegerField(default=1)),
                ("created", models.DateTimeField(auto_now_add=True)),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="cards", to="calculator.table"
                    ),
                ),
            ],
            options={
                "ordering": ["version"],
            },
        ),
        migrations.RenameField(
            model_name="table",
            old_name="seq",
            new_name="version",
        ),
        migrations.AddField(
            model_name="table",
            name="state",
            field=models.JSONField(default=dict),
        ),
        migrations.AddField(
            model_name="event",
            name="after",
            field=models.JSONField(default=dict),
        ),
        migrations.AddField(
            model_name="event",
            name="body_hash",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="event",
            name="card_version",
            field=models.IntegerField(default=1),
        ),
        migrations.AddField(
            model_name="event",
            name="idempotency_key",
            field=models.CharField(blank=True, max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="event",
            name="rows",
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name="hand",
            name="after",
            field=models.JSONField(default=dict),
        ),
        migrations.AddField(
            model_name="hand",
            name="body_hash",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="hand",
            name="card_version",
            field=models.IntegerField(default=1),
        ),
        migrations.AddField(
            model_name="hand",
            name="idempotency_key",
            field=models.CharField(blank=True, max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="hand",
            name="rows",
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name="table",
            name="creator",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="table",
            name="redo",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(stored_state, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name="table",
            name="options",
        ),
        migrations.RemoveField(
            model_name="table",
            name="multiplier",
        ),
        migrations.RemoveField(
            model_name="table",
            name="stake",
        ),
        migrations.AlterField(
            model_name="event",
            name="kind",
            field=models.CharField(
                choices=[("draw", "流局"), ("leave", "离场"), ("next", "下一底 / 局"), ("card", "规则卡")], max_length=8
            ),
        ),
        migrations.AlterField(
            model_name="hand",
            name="applied",
            field=models.JSONField(default=dict),
        ),
        migrations.AddIndex(
            model_name="table",
            index=models.Index(fields=["creator", "created"], name="table_creator_created"),
        ),
        migrations.AddIndex(
            model_name="table",
            index=models.Index(fields=["updated"], name="table_updated"),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.UniqueConstraint(
                condition=models.Q(("idempotency_key__isnull", False)),
                fields=("table", "idempotency_key"),
                name="event_key_unique",
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.UniqueConstraint(
                condition=models.Q(("idempotency_key__isnull", False)),
                fields=("table", "idempotency_key"),
                name="hand_key_unique",
            ),
        ),
        migrations.AddConstraint(
            model_name="card",
            constraint=models.UniqueConstraint(fields=("table", "version"), name="card_version_unique"),
        ),
    ]
