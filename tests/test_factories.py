"""Every model of our apps has a factory (factory_boy, in `<app>/tests/factories.py`), and
each factory builds a valid, saved instance: what a test builds with it is a row the
application itself could have written."""

import importlib
import inspect
from pathlib import Path

import pytest
from django.apps import apps
from factory.django import DjangoModelFactory

ROOT = Path(__file__).resolve().parents[1]


def our_app_configs():
    """The project's apps (their code is in this repository), not Django's or libraries'."""
    return [c for c in apps.get_app_configs() if Path(c.path).resolve().parent == ROOT]


def factories_of(app_config) -> list[type[DjangoModelFactory]]:
    try:
        module = importlib.import_module(f"{app_config.name}.tests.factories")
    except ModuleNotFoundError:
        return []
    return [
        value
        for value in vars(module).values()
        if inspect.isclass(value)
        and issubclass(value, DjangoModelFactory)
        and value.__module__ == module.__name__
        and value._meta.model is not None
    ]


FACTORIES = [f for app in our_app_configs() for f in factories_of(app)]


def test_the_project_apps_are_found():
    labels = {c.label for c in our_app_configs()}
    assert {"agencies", "wallet", "flights", "bookings", "webhooks", "core"} <= labels


def test_every_model_of_our_apps_has_a_factory():
    with_factory = {f._meta.model for f in FACTORIES}
    missing = [
        f"{model._meta.label} (add it to {app.name}/tests/factories.py)"
        for app in our_app_configs()
        for model in app.get_models()
        if model not in with_factory
    ]
    assert missing == []


@pytest.mark.django_db
@pytest.mark.parametrize("factory_class", FACTORIES, ids=lambda f: f.__name__)
def test_each_factory_builds_a_valid_saved_instance(factory_class):
    instance = factory_class()
    model = factory_class._meta.model
    assert instance.pk is not None and model.objects.filter(pk=instance.pk).exists()
    saved = model.objects.get(pk=instance.pk)
    # Field validators, choices, blank, unique and constraint rules all pass. A NULL its
    # column allows is a valid state (a key still in flight, an inviter since deleted) even
    # where the field is not `blank` for forms, so those are left out.
    nulls = [
        f.name for f in model._meta.concrete_fields if f.null and f.value_from_object(saved) is None
    ]
    saved.full_clean(exclude=nulls)
    # A second one does not collide with the first (sequences, unique fields).
    assert factory_class().pk != instance.pk
