"""Rule cards with versions, and the account stored beside the hands (issues 12 and 15): the new fields.

In three steps (0002 adds, 0003 fills, 0004 removes and indexes), each its own transaction: PostgreSQL creates no
index on a table with pending trigger events from the same transaction.
"""

import django.db.models.deletion
from django.db import migrations, models


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
    ]
