import orjson
from django.db import models


class OrjsonTextField(models.TextField):
    """A JSON document stored as text, encoded and decoded with orjson.

    For write-once blobs that are never queried inside (stored search offers): several times
    faster than JSONField's stdlib encoder, which dominated storing a search's offers. Amounts in
    it are already strings."""

    def from_db_value(self, value, expression, connection):
        return None if value is None else orjson.loads(value)

    def to_python(self, value):
        if value is None or not isinstance(value, str | bytes):
            return value
        return orjson.loads(value)

    def get_prep_value(self, value):
        return None if value is None else orjson.dumps(value).decode()
