import encrypted_fields.fields
from django.db import migrations


def forget_stored_responses(apps, schema_editor):
    # Stored plain; they cannot be read as encrypted text. Keys live 24 h: forgetting them only
    # means a retry within that day runs again (offers and debits are still unique).
    apps.get_model("core", "IdempotencyKey").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(forget_stored_responses, migrations.RunPython.noop),
        migrations.RemoveField(model_name="idempotencykey", name="response_body"),
        migrations.AddField(
            model_name="idempotencykey",
            name="response_body",
            field=encrypted_fields.fields.EncryptedTextField(null=True),
        ),
    ]
