import api.versions
from django.db import migrations, models


class Migration(migrations.Migration):
    """Endpoints that exist are rendered in the first version, as they have been; new ones in
    their team's (set by webhook_create)."""

    dependencies = [
        ("webhooks", "0010_choices_reversals_and_withdrawals"),
    ]

    operations = [
        migrations.AddField(
            model_name="webhookendpoint",
            name="api_version",
            field=models.CharField(default="2026-11-22", max_length=10),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="webhookendpoint",
            name="api_version",
            field=models.CharField(
                default=api.versions.latest_version,
                help_text="The API version its deliveries are rendered in.",
                max_length=10,
                verbose_name="API version",
            ),
        ),
    ]
