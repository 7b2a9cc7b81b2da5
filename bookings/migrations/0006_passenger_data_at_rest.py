# Passport and ID numbers encrypted at rest; born_on may be erased (retention).

import json

import core.json_fields
from django.db import migrations, models

from core.json_fields import is_encrypted

BATCH = 500


def _rewrite(apps, schema_editor, convert):
    """Rewrite each stored identity_documents text with `convert(field, text)` (None: keep)."""
    model = apps.get_model("bookings", "BookingPassenger")
    field = model._meta.get_field("identity_documents")
    quote = schema_editor.connection.ops.quote_name
    table, column = quote(model._meta.db_table), quote(field.column)
    with schema_editor.connection.cursor() as reader:
        reader.execute(f"SELECT id, {column} FROM {table} ORDER BY id")  # noqa: S608
        while rows := reader.fetchmany(BATCH):
            changes = [(new, pk) for pk, text in rows if (new := convert(field, text)) is not None]
            if changes:
                with schema_editor.connection.cursor() as writer:
                    writer.executemany(
                        f"UPDATE {table} SET {column} = %s WHERE id = %s",  # noqa: S608
                        changes,
                    )


def encrypt(apps, schema_editor):
    def convert(field, text):
        if text is None or is_encrypted(text):
            return None
        return field.get_prep_value(json.loads(text))

    _rewrite(apps, schema_editor, convert)


def decrypt(apps, schema_editor):
    def convert(field, text):
        if text is None or not is_encrypted(text):
            return None
        return json.dumps(field.from_db_value(text, None, schema_editor.connection))

    _rewrite(apps, schema_editor, convert)


class Migration(migrations.Migration):

    dependencies = [
        ('bookings', '0005_panel_translations'),
    ]

    operations = [
        migrations.AddField(
            model_name='booking',
            name='personal_data_erased_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='bookingpassenger',
            name='born_on',
            field=models.DateField(null=True, verbose_name='born on'),
        ),
        migrations.AlterField(
            model_name='bookingpassenger',
            name='identity_documents',
            field=core.json_fields.EncryptedJSONField(blank=True, default=list, verbose_name='identity documents'),
        ),
        migrations.RunPython(encrypt, decrypt),
    ]
