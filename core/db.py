"""Database helpers that the ORM does not do fast enough."""

from django.db import connection, models

from core.ids import PrefixedIdField

# Field types whose Python values psycopg adapts exactly as the field would prepare them
# (str, bool, an already quantized Decimal, an aware datetime): preparing them through the
# field only costs time (~3 ms for a search's offers).
_ADAPTED_BY_THE_DRIVER = {
    models.CharField,
    models.BooleanField,
    models.DecimalField,
    models.DateTimeField,
    models.PositiveSmallIntegerField,
    models.IntegerField,
    PrefixedIdField,
}


def insert_rows(model, rows: list[dict]) -> None:
    """Insert many new rows at once, given as {attname: value} dicts (every concrete field).

    Storing a search writes ~50 offers of ~5 KB each: `bulk_create` spent ~75 ms building model
    instances and compiling that INSERT on PostgreSQL; COPY from plain dicts takes ~7 ms. Values
    are adapted by each field exactly as `save()` would (`get_db_prep_save`), except plain values
    that the driver adapts identically, so the rows are the same; no signals are sent and no
    defaults are filled in."""
    if not rows:
        return
    fields = list(model._meta.concrete_fields)
    on_postgresql = connection.vendor == "postgresql"
    preparers = [
        (
            field.attname,
            None
            if on_postgresql and type(_value_field(field)) in _ADAPTED_BY_THE_DRIVER
            else field.get_db_prep_save,
        )
        for field in fields
    ]
    values = [
        [
            row[name] if prepare is None else prepare(row[name], connection)
            for name, prepare in preparers
        ]
        for row in rows
    ]
    table = connection.ops.quote_name(model._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(field.column) for field in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in values:
                    copy.write_row(row)
        else:
            placeholders = ", ".join(["%s"] * len(fields))
            sql = f"INSERT INTO {table} ({columns}) VALUES ({placeholders})"  # noqa: S608 - names from the model
            cursor.executemany(sql, values)


def _value_field(field):
    """The field that prepares a column's value (a foreign key's target field)."""
    return field.target_field if isinstance(field, models.ForeignKey) else field
