"""On PostgreSQL, compress stored offers with lz4 instead of pglz: storing a search's ~290 KB
of offers is ~30 % faster (bench/search.py). Other databases are unchanged."""

from django.db import migrations


def lz4(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "ALTER TABLE flights_offer ALTER COLUMN data SET COMPRESSION lz4", params=None
        )


def pglz(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "ALTER TABLE flights_offer ALTER COLUMN data SET COMPRESSION pglz", params=None
        )


class Migration(migrations.Migration):
    dependencies = [("flights", "0001_initial")]

    operations = [migrations.RunPython(lz4, pglz)]
