"""`with_field(model, name, field)`: a copy of a model with one field more, to show that a
hand-written INSERT follows the model's fields (core.sql.InsertColumns). The copy lives in an
app registry of its own, unmanaged, on the model's table: the project's models, migrations and
checks never see it, and its relations point at the real models without adding reverse ones."""

from django.apps.registry import Apps
from django.db import models


def with_field(model: type[models.Model], name: str, field: models.Field) -> type[models.Model]:
    fields = {}
    for original in model._meta.local_fields:
        _, _, args, kwargs = original.deconstruct()
        if original.is_relation:
            kwargs.update(to=original.remote_field.model, related_name="+")
        fields[original.name] = type(original)(*args, **kwargs)
    meta = type(
        "Meta",
        (),
        {
            "apps": Apps(),
            "app_label": model._meta.app_label,
            "db_table": model._meta.db_table,
            "managed": False,
        },
    )
    # A clone made now comes last, as a field added at the end of the class does.
    attributes = {"__module__": __name__, "Meta": meta, **fields, name: field.clone()}
    return type(f"{model.__name__}With{name.title().replace('_', '')}", (models.Model,), attributes)
