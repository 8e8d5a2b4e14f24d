"""The table's options, stake and multiplier now live in its cards; indexes and constraints of the new fields."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("calculator", "0003_stored_state_of_existing_tables"),
    ]

    operations = [
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
