import unicodedata

from django.db import migrations, models


def fold(text):
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


def fill_search_names_and_origin(apps, schema_editor):
    # Every client so far was made from a booking's lead passenger (or typed in the panel as
    # one): each stays erasable with its bookings, as before.
    Client = apps.get_model("agencies", "Client")
    for client in Client.objects.only("id", "full_name").iterator():
        Client.objects.filter(pk=client.pk).update(
            search_name=fold(client.full_name), made_from_booking=True
        )


class Migration(migrations.Migration):
    dependencies = [
        ("agencies", "0006_client_tax_id"),
    ]

    operations = [
        migrations.AddField(
            model_name="client",
            name="postal_code",
            field=models.CharField(blank=True, max_length=16, verbose_name="postal code (CEP)"),
        ),
        migrations.AddField(
            model_name="client",
            name="street",
            field=models.CharField(blank=True, max_length=120, verbose_name="street"),
        ),
        migrations.AddField(
            model_name="client",
            name="street_number",
            field=models.CharField(blank=True, max_length=20, verbose_name="number"),
        ),
        migrations.AddField(
            model_name="client",
            name="complement",
            field=models.CharField(blank=True, max_length=60, verbose_name="complement"),
        ),
        migrations.AddField(
            model_name="client",
            name="district",
            field=models.CharField(blank=True, max_length=60, verbose_name="district"),
        ),
        migrations.AddField(
            model_name="client",
            name="city",
            field=models.CharField(blank=True, max_length=60, verbose_name="city"),
        ),
        migrations.AddField(
            model_name="client",
            name="state",
            field=models.CharField(blank=True, max_length=60, verbose_name="state"),
        ),
        migrations.AddField(
            model_name="client",
            name="country",
            field=models.CharField(default="BR", max_length=2, verbose_name="country"),
        ),
        migrations.AddField(
            model_name="client",
            name="metadata",
            field=models.JSONField(blank=True, default=dict, verbose_name="metadata"),
        ),
        migrations.AddField(
            model_name="client",
            name="search_name",
            field=models.CharField(default="", editable=False, max_length=255),
        ),
        migrations.AddField(
            model_name="client",
            name="made_from_booking",
            field=models.BooleanField(default=False, verbose_name="made from a booking"),
        ),
        migrations.RunPython(fill_search_names_and_origin, migrations.RunPython.noop),
    ]
