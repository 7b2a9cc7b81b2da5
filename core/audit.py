"""The panel's audit trail, on django-auditlog. Every save of a registered model
(settings.AUDITLOG_INCLUDE_TRACKING_MODELS) is an entry with its old and new values, and, in a
panel request, who made it (auditlog's middleware). A panel action writes one explicit entry
naming the action, what it did to the amounts, and the old and new values of the object.

Each app names its own panel actions: the codes its actions store in their entries, with how
they read, in its AppConfig's `audit_actions` (agencies/apps.py, …). `action_labels` gathers
them from the app registry when an entry is first read, so no module writes into another's."""

from collections.abc import Callable
from decimal import Decimal
from functools import cache
from typing import Any

from auditlog.context import disable_auditlog
from auditlog.diff import model_instance_diff
from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ImproperlyConfigured
from django.db import models, transaction
from django.utils.translation import gettext

from core.models import AuditEntry


@cache
def action_labels() -> dict[str, Any]:
    """The panel actions that write an explicit entry, by the code stored in the entry: every
    installed app's `audit_actions`. A code belongs to one app."""
    labels: dict[str, Any] = {}
    for config in apps.get_app_configs():
        for code, label in getattr(config, "audit_actions", {}).items():
            if code in labels:
                raise ImproperlyConfigured(f"The audit action {code!r} is declared twice.")
            labels[code] = label
    return labels


def action_label(entry) -> str:
    """How an entry reads in the panel: the action and its effect, or created/changed/deleted."""
    code = (entry.additional_data or {}).get("action")
    if code:
        label = str(action_labels().get(code, code))
        summary = (entry.additional_data or {}).get("summary", "")
        return f"{label}: {summary}" if summary else label
    return {
        entry.Action.CREATE: gettext("Created"),
        entry.Action.UPDATE: gettext("Changed"),
        entry.Action.DELETE: gettext("Deleted"),
        entry.Action.ACCESS: gettext("Accessed"),
    }.get(entry.action, str(entry.action))


def entries_for(obj: models.Model):
    content_type = ContentType.objects.get_for_model(obj, for_concrete_model=False)
    return (
        AuditEntry.objects.filter(content_type=content_type, object_pk=str(obj.pk))
        .select_related("actor", "content_type")
        .order_by("-timestamp", "-pk")
    )


def audit_action(
    *,
    actor,
    obj: models.Model,
    action: str,
    summary: str,
    run: Callable[[Any], object],  # called with obj
    extra_changes: Callable[[], dict] | None = None,
    created: bool = False,
):
    """Run a panel action on `obj` and record it: one entry with the action's name, a summary
    of its effect (amounts) and the old and new values of the object's audited fields.
    `created`: the action creates `obj` (not yet saved): its entry is a creation, with the new
    values only.

    The automatic entries are switched off while the action runs so that the action is one
    entry, not an action entry plus a bare field change. `extra_changes` is called before and
    after the action for values outside the object (e.g. the wallet balance), each a dict of
    name → value; they are recorded as old → new too."""
    manager = type(obj)._default_manager
    before = None if created else manager.get(pk=obj.pk)
    outside_before = extra_changes() if extra_changes else {}
    with disable_auditlog():
        result = run(obj)
    after = manager.get(pk=obj.pk)
    changes = model_instance_diff(before, after) or {}
    if extra_changes:
        outside_after = extra_changes()
        for name, old in outside_before.items():
            new = outside_after.get(name)
            if old != new:
                changes[name] = [_text(old), _text(new)]
    additional = dict(getattr(after, "get_additional_data", dict)() or {})
    additional.update({"action": action, "summary": str(summary)})
    with transaction.atomic():
        AuditEntry.objects.log_create(
            after,
            force_log=True,
            action=AuditEntry.Action.CREATE if created else AuditEntry.Action.UPDATE,
            changes=changes,
            actor=actor,
            additional_data=additional,
        )
    return result


def _text(value) -> str:
    if value is None:
        return "None"
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    return str(value)
