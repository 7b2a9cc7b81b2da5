import api.versions
from django.db import migrations, models


class Migration(migrations.Migration):
    """Teams that exist are pinned to the first version, which they have been using; new ones
    to the latest when they are created."""

    dependencies = [
        ("agencies", "0010_api_key_permissions"),
    ]

    operations = [
        migrations.AddField(
            model_name="team",
            name="api_version",
            field=models.CharField(default="2026-11-22", max_length=10),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="team",
            name="api_version",
            field=models.CharField(
                default=api.versions.latest_version,
                help_text="The API version of requests without an Api-Version header, and of webhooks.",
                max_length=10,
                verbose_name="API version",
            ),
        ),
    ]
