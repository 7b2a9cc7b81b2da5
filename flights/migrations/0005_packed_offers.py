"""One row per search, its offers packed in one value (flights/packing.py), instead of a row per
offer with the offer's full JSON and a row per passenger. Searches stored before this migration
are deleted: their offers expire within the hour and cannot be read in the new form."""

import django.utils.timezone
from django.db import migrations, models

import core.json_fields


def delete_stored_searches(apps, schema_editor):
    apps.get_model("flights", "OfferRequest").objects.all().delete()


def lz4(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "ALTER TABLE flights_offerrequest ALTER COLUMN offers SET COMPRESSION lz4",
            params=None,
        )


class Migration(migrations.Migration):
    dependencies = [("flights", "0004_sandbox_order_book")]

    operations = [
        migrations.DeleteModel(name="Offer"),
        migrations.DeleteModel(name="OfferPassenger"),
        migrations.RunPython(delete_stored_searches, migrations.RunPython.noop),
        migrations.RemoveField(model_name="offerrequest", name="cabin_class"),
        migrations.RemoveField(model_name="offerrequest", name="slices"),
        migrations.RemoveField(model_name="offerrequest", name="trip_type"),
        migrations.AddField(
            model_name="offerrequest",
            name="expires_at",
            field=models.DateTimeField(
                default=django.utils.timezone.now, help_text="When the last of its offers expires."
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="offerrequest",
            name="offers",
            field=core.json_fields.OrjsonTextField(
                default=list, help_text="The packed offers (flights/packing.py)."
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="offerrequest",
            name="passengers",
            field=core.json_fields.OrjsonTextField(
                default=list, help_text="[[pas_ id, type, supplier's passenger id], ...]"
            ),
            preserve_default=False,
        ),
        migrations.AddIndex(
            model_name="offerrequest",
            index=models.Index(fields=["expires_at"], name="flights_off_expires_3a8f89_idx"),
        ),
        migrations.RunPython(lz4, migrations.RunPython.noop),
    ]
