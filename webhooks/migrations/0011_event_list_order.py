import django.db.models
from django.db import migrations, models

import core.commit_order


class Migration(migrations.Migration):
    dependencies = [
        ("agencies", "0010_api_key_permissions"),
        ("webhooks", "0010_choices_reversals_and_withdrawals"),
    ]

    operations = [
        # The events already kept take 0 (a constant default: no rewrite of the table), so they
        # list before every later one, among themselves by creation time as before; the
        # default then becomes the writing transaction's id, for the rows written from now on.
        migrations.AddField(
            model_name="event",
            name="xact_id",
            field=models.BigIntegerField(
                db_default=django.db.models.Value(0), editable=False, verbose_name="database transaction"
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="xact_id",
            field=models.BigIntegerField(
                db_default=core.commit_order.CurrentTransactionId(),
                editable=False,
                verbose_name="database transaction",
            ),
        ),
        migrations.AddIndex(
            model_name="event",
            index=models.Index(
                fields=["team", "live_mode", "xact_id", "created_at", "id"],
                name="event_list_order",
            ),
        ),
    ]
