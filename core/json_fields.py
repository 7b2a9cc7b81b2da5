from typing import Any

import orjson
from django.db import models
from encrypted_fields.fields import EncryptedFieldMixin


class OrjsonTextField(models.TextField):
    """A JSON document stored as text, encoded and decoded with orjson.

    For write-once blobs that are never queried inside (stored search offers): several times
    faster than JSONField's stdlib encoder, which dominated storing a search's offers. Amounts in
    it are already strings."""

    # What the model attribute holds, for django-stubs: any JSON value, not a string.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def from_db_value(self, value, expression, connection):
        return None if value is None else orjson.loads(value)

    def to_python(self, value):
        if value is None or not isinstance(value, str | bytes):
            return value
        return orjson.loads(value)

    def get_prep_value(self, value):
        return None if value is None else orjson.dumps(value).decode()


class EncryptedJSONField(EncryptedFieldMixin, models.TextField):
    """A JSON document stored as Fernet-encrypted text, with the keys of the other encrypted
    fields (django-fernet-encrypted-fields: derived from SECRET_KEY, its fallbacks and
    FIELD_ENCRYPTION_SALT). For personal data such as passport numbers: the database, its
    backups and dumps hold only ciphertext. Never queried inside."""

    # What the model attribute holds, for django-stubs: any JSON value, not a string.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def get_prep_value(self, value):
        if value is None:
            return None
        return self.f.encrypt(orjson.dumps(value)).decode()

    def get_db_prep_value(self, value, connection, prepared=False):
        return value if prepared else self.get_prep_value(value)

    def from_db_value(self, value, expression, connection):
        # A value that does not decrypt raises (InvalidToken): a wrong key is not silently read
        # as an empty list.
        return None if value is None else orjson.loads(self.f.decrypt(value.encode()))

    def to_python(self, value):
        if value is None or not isinstance(value, str | bytes):
            return value  # already the document
        return orjson.loads(self.f.decrypt(value if isinstance(value, bytes) else value.encode()))

    def clean(self, value, model_instance):  # the mixin's clean expects a text field's value
        self.validate(value, model_instance)
        self.run_validators(value)
        return value

    def value_to_string(self, obj):  # serialization (dumpdata): the document, as JSONField
        return self.value_from_object(obj)


def is_encrypted(text: str) -> bool:
    """Whether stored text is a Fernet token (version byte 0x80, base64url "gAAAAA…")."""
    return text.startswith("gAAAAA")
