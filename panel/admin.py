"""The panel is multi-tenant: support staff see every team, agency users only their own, and a
user who is neither sees nothing. Every admin here records its history in the audit trail and
asks for confirmation before an action that moves money or revokes access.

Also the panel's shared display pieces: status labels, money columns, the live/test switch and
bounded lists of related rows (docs/decisions.md "Panel")."""

import re
from collections.abc import Callable
from contextvars import ContextVar
from datetime import datetime
from decimal import Decimal, InvalidOperation
from functools import partial
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.core.exceptions import FieldDoesNotExist, PermissionDenied
from django.db import models
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from djmoney.models.fields import MoneyField

from core.audit import action_label, audit_action, entries_for
from core.exceptions import ApplicationError
from core.i18n import sao_paulo_time_for_people
from core.models import AuditEntry
from core.money import money_display
from panel.roles import Area, may_change, may_view, role_label

# Colour of each status value; the label's text always says the status too.
STATUS_TONES = {
    "success": {"completed", "ticketed", "succeeded", "active", "live", "credit"},
    "info": {"confirmed"},
    "warning": {"pending", "test"},
    "danger": {"failed", "revoked", "disconnected", "inactive"},
    "muted": {"cancelled", "expired"},
}
TONE_OF = {value: tone for tone, values in STATUS_TONES.items() for value in values}


def status_label(value: str, label) -> str:
    """A coloured label with the status in words (`<span class="status status-failed">`)."""
    return format_html(
        '<span class="status status-{}" data-status="{}">{}</span>',
        TONE_OF.get(value, "muted"),
        value,
        label,
    )


def money_cell(value, currency: str = "BRL", *, negative: bool = False) -> str:
    """A money column's cell: `R$ 1.234,56` in the user's language, right-aligned (panel.css)."""
    if value is None:
        return "—"
    return format_html(
        '<span class="money">{}</span>', money_display(value, currency, negative=negative)
    )


def live_mode_filter(field: str = "live_mode"):
    """A list filter on the mode that starts on live data; test data is one click away, and the
    page says which one is shown. `field` is the lookup to the row's `live_mode`."""

    class LiveModeFilter(admin.SimpleListFilter):
        is_live_mode_filter = True
        title = _("live or test data")
        parameter_name = "mode"

        def lookups(self, request, model_admin):
            return [("live", _("Live data")), ("test", _("Test data"))]

        def value(self):
            return super().value() or "live"

        def queryset(self, request, queryset):
            return queryset.filter(**{field: self.value() == "live"})

        def choices(self, changelist):
            for lookup, title in self.lookup_choices:
                yield {
                    "selected": self.value() == lookup,
                    "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                    "display": title,
                }

    return LiveModeFilter


def related_rows(*, headers, rows, total: int, changelist_url: str, filters: dict, limit: int):
    """A short table of the latest related rows (at most `limit`) with a link to all of them in
    their own list, instead of an inline that would load thousands of rows."""
    if not total:
        return "—"
    head = format_html_join("", "<th>{}</th>", ((h,) for h in headers))
    body = format_html_join(
        "",
        "<tr>{}</tr>",
        ((format_html_join("", "<td>{}</td>", ((cell,) for cell in row)),) for row in rows),
    )
    summary = ngettext(
        "Latest %(shown)d of %(count)d.", "Latest %(shown)d of %(count)d.", total
    ) % {"shown": min(limit, total), "count": total}
    return format_html(
        '<table class="related-rows"><thead><tr>{}</tr></thead><tbody>{}</tbody></table>'
        '<p class="help">{} <a href="{}?{}">{}</a></p>',
        head,
        body,
        summary,
        changelist_url,
        urlencode(filters),
        _("See them all in their list"),
    )


def admin_url(model, action: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{action}", args=args)


def local_datetime(value) -> str:
    """A list cell's time: São Paulo date and time with seconds, the zone on a second line (the
    one-line DATETIME_FORMAT of detail pages is too wide for a column)."""
    if value is None:
        return "—"
    return format_html(
        '<span class="when">{}</span><small class="zone">{}</small>',
        formats.date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT"),
        _("Brasília time"),
    )


def datetime_column(field):
    def column(obj):
        return local_datetime(getattr(obj, field.name))

    column.__name__ = field.name  # the cell keeps its class, field-<name>
    return admin.display(description=field.verbose_name, ordering=field.name)(column)


def is_support(request) -> bool:
    return bool(getattr(request.user, "is_support", False))


def user_team_id(request):
    """The agency user's team, or None (support staff, or a user with no role)."""
    return getattr(request.user, "team_id", None)


def change_display(entry: AuditEntry) -> list[tuple[str, str, str]]:
    """(field, old, new) rows of an entry as people read them: the field's verbose name in the
    reader's language, yes/no, choices' labels, money as `R$ 1.234,56`, decimals and times in
    the reader's format (São Paulo time, labelled). A many-to-many change (a user's groups)
    reads as "add Support" / "delete Support"."""
    raw = entry.changes_dict or {}
    model = entry.content_type.model_class()
    rows = []
    for name, values in raw.items():
        field = _field_of(model, name)
        label = str(capfirst(field.verbose_name)) if field is not None else _extra_label(name)
        if isinstance(values, dict):
            objects = ", ".join(str(o) for o in values.get("objects", []))
            rows.append((label, "", f"{values.get('operation', '')} {objects}"))
            continue
        old, new = values if isinstance(values, list | tuple) and len(values) == 2 else ("", values)
        if _none(old) == _none(new):
            continue  # a created object's empty fields
        rows.append((label, value_for_people(field, name, old), value_for_people(field, name, new)))
    return rows


# Values an action records from outside its object (core.audit's extra_changes), by name.
_EXTRA_LABELS = {"wallet balance": _("wallet balance"), "wallet debt": _("wallet debt")}


def _extra_label(name: str) -> str:
    return str(capfirst(_EXTRA_LABELS.get(name, name)))


def _field_of(model, name: str):
    try:
        field = model._meta.get_field(name) if model is not None else None
    except FieldDoesNotExist:
        return None
    return field if hasattr(field, "verbose_name") else None  # not a reverse relation


def _none(value) -> str:
    return "—" if value in (None, "None", "") else str(value)


def _amount_in(text: str) -> Decimal:
    """The amount of a money value as auditlog stored it, written in the language active then:
    "R$25.50", "R$ 25,50", "R$ 1.234,56", "R$1,234.56"."""
    number = re.sub(r"[^0-9,.\-]", "", text)
    if number.rfind(",") > number.rfind("."):  # a decimal comma
        return Decimal(number.replace(".", "").replace(",", "."))
    return Decimal(number.replace(",", ""))


def value_for_people(field, name: str, value) -> str:
    """One recorded value (auditlog stores text) as the reader reads it."""
    if value in (None, "None", ""):
        return "—"
    text = str(value)
    try:
        if field is None:
            return money_display(Decimal(text)) if name in _EXTRA_LABELS else text
        if isinstance(field, models.BooleanField):
            return {"True": gettext("Yes"), "False": gettext("No")}.get(text, text)
        if field.choices:
            labels = {str(key): label for key, label in field.flatchoices}
            return str(labels.get(text, text))
        if isinstance(field, MoneyField):
            return money_display(_amount_in(text))
        if isinstance(field, models.DecimalField):
            return formats.number_format(Decimal(text), decimal_pos=field.decimal_places)
        if isinstance(field, models.DateTimeField):
            return sao_paulo_time_for_people(datetime.fromisoformat(text))
    except (InvalidOperation, ValueError):
        return text
    return text


def actor_for_people(entry: AuditEntry, request) -> str:
    """Who made an audit entry, as the reader may know it. Support sees names and logins; an
    agency user sees their own team's people by name, and anyone from support only as
    "Support" (never their login e-mail)."""
    actor = entry.actor
    if is_support(request):
        if actor is None:
            return entry.actor_email or gettext("system")
        return _with_role(actor.get_full_name() or actor.get_username(), entry)
    if actor is not None and getattr(actor, "team_id", None) == user_team_id(request):
        return _with_role(actor.get_full_name() or actor.get_username(), entry)
    if actor is not None and getattr(actor, "is_support", False):
        return gettext("Support")
    return gettext("a former user") if entry.actor_email else gettext("system")


def _with_role(name: str, entry: AuditEntry) -> str:
    """ "Maria (Finance)": the role the agency user had in their team when they acted."""
    role = entry.actor_role
    return f"{name} ({role_label(role)})" if role else name


def _rendered(response):
    """A TemplateResponse rendered now (while what its display methods read is set)."""
    return response.render() if hasattr(response, "render") else response


class AuditedAdminMixin:
    """The object's "History" page lists its audit entries (django-auditlog): who, when, which
    action, the old and new values. Only for rows the user can see (get_object is scoped)."""

    def audit_entries(self, obj):
        return entries_for(obj)

    def history_view(self, request, object_id, extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        if obj is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        if not self.has_view_or_change_permission(request, obj):
            raise PermissionDenied
        entries = [
            (entry, change_display(entry), actor_for_people(entry, request))
            for entry in self.audit_entries(obj)[:500]
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": _("History: %s") % obj,
            "subtitle": None,
            "entries": entries,
            "module_name": str(capfirst(self.opts.verbose_name_plural)),
            "object": obj,
            "opts": self.opts,
            "preserved_filters": self.get_preserved_filters(request),
            **(extra_context or {}),
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/audit_history.html", context)


if TYPE_CHECKING:
    _AdminBase = admin.ModelAdmin  # what the mixin is mixed into
else:
    _AdminBase = object


class ConfirmedActionsMixin(_AdminBase):
    """Actions that move money or revoke access follow Django's `delete_selected`: the first
    POST renders a page saying what will happen to each object (and to the amounts); the
    second, with `post=yes`, runs the service for each and writes one audit entry each."""

    def confirm_then_run(
        self,
        request,
        queryset,
        *,
        action: str,
        title,
        question,
        describe,
        run,
        done_message,
        extra_changes: Callable[[Any], dict] | None = None,
        carried: Callable[[], list[tuple[str, str]]] | None = None,
    ):
        """`describe(obj)` says what will happen to one object (shown on the confirmation page
        and kept in the audit entry); `run(obj)` calls the service; `extra_changes(obj)` reads
        values outside the object (the wallet balance), recorded old → new; `done_message` is
        a format with `%(object)s`, or a function of the object done; `carried()`, read
        after the objects are described, gives hidden fields the confirmation posts back (what
        the page showed: the quote it confirms)."""
        objects = list(queryset)
        if request.POST.get("post") == "yes":
            for obj in objects:
                summary = describe(obj)
                try:
                    audit_action(
                        actor=request.user,
                        obj=obj,
                        action=action,
                        summary=summary,
                        run=run,
                        extra_changes=partial(extra_changes, obj) if extra_changes else None,
                    )
                except ApplicationError as exc:
                    self.message_user(request, f"{obj}: {_t(exc.message)}", messages.ERROR)
                else:
                    obj.refresh_from_db()  # as it is now (its status in its name)
                    done = (
                        done_message(obj)
                        if callable(done_message)
                        else done_message % {"object": obj}
                    )
                    self.message_user(request, done, messages.SUCCESS)
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "subtitle": None,
            "question": question,
            "rows": [(obj, describe(obj), self._change_link(obj)) for obj in objects],
            "carried": carried() if carried else [],
            "queryset": queryset,
            "opts": self.opts,
            "action": _posted_action(request),  # the admin action's name, posted again
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "media": self.media,
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/confirm_action.html", context)

    def _change_link(self, obj) -> str:
        return reverse(
            f"admin:{self.opts.app_label}_{self.opts.model_name}_change",
            args=[obj.pk],
            current_app=self.admin_site.name,
        )


def _posted_action(request) -> str:
    """The action chosen on the change list (as ModelAdmin.response_action reads it)."""
    chosen = request.POST.getlist("action")
    try:
        return chosen[int(request.POST.get("index", 0))]
    except (IndexError, ValueError):
        return chosen[0] if chosen else ""


class PanelAdmin(admin.ModelAdmin):
    """The panel's list conventions: São Paulo times in two lines, the data mode in the title;
    and a page with nothing to edit offers no Save buttons (its actions are its own)."""

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None and not add:
            editable = set(self.get_fields(request, obj)) - set(
                self.get_readonly_fields(request, obj)
            )
            inlines_editable = any(
                inline.has_change_permission(request, obj)
                or inline.has_add_permission(request, obj)
                for inline in self.get_inline_instances(request, obj)
            )
            if not editable and not inlines_editable:
                context.update(
                    show_save=False,
                    show_save_and_continue=False,
                    show_save_and_add_another=False,
                    show_save_as_new=False,
                )
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_list_display(self, request):
        columns = []
        for name in super().get_list_display(request):
            field = _model_field(self.model, name) if isinstance(name, str) else None
            if isinstance(field, models.DateTimeField):
                columns.append(datetime_column(field))
            else:
                columns.append(name)
        return columns

    def changelist_view(self, request, extra_context=None):
        if any(getattr(f, "is_live_mode_filter", False) for f in self.list_filter):
            test = request.GET.get("mode") == "test"
            extra_context = {
                "title": format_html(
                    "{} · {}",
                    capfirst(self.model._meta.verbose_name_plural),
                    _("Test data") if test else _("Live data"),
                ),
                **(extra_context or {}),
            }
        return super().changelist_view(request, extra_context)


def _model_field(model, name):
    try:
        return model._meta.get_field(name)
    except FieldDoesNotExist:
        return None


class TeamScopedAdmin(AuditedAdminMixin, ConfirmedActionsMixin, PanelAdmin):
    """Scopes an admin to the logged-in agency user's team (rows, foreign-key choices, the team
    of new rows). `team_field` is the lookup from the model to its team. Fails closed: a user
    who is neither support nor on a team gets no rows and no permissions.

    `panel_area` is the part of the panel the pages belong to (panel/roles.py): an agency user
    whose role does not view it gets no page (403), one who only views it gets no add, change,
    delete or action. An admin without an area is the owner's alone."""

    team_field = "team"
    panel_area: str | None = None

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if is_support(request):
            return queryset
        if user_team_id(request) is None:
            return queryset.none()
        return queryset.filter(**{self.team_field: user_team_id(request)})

    def _has_role(self, request) -> bool:
        return is_support(request) or user_team_id(request) is not None

    def may_view_area(self, request) -> bool:
        return self._has_role(request) and may_view(request.user, self.panel_area)

    def may_change_area(self, request) -> bool:
        return self._has_role(request) and may_change(request.user, self.panel_area)

    def has_module_permission(self, request):
        return self.may_view_area(request) and super().has_module_permission(request)

    def has_view_permission(self, request, obj=None):
        return self.may_view_area(request) and super().has_view_permission(request, obj)

    def has_add_permission(self, request):
        return self.may_change_area(request) and super().has_add_permission(request)

    def has_change_permission(self, request, obj=None):
        return self.may_change_area(request) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self.may_change_area(request) and super().has_delete_permission(request, obj)

    def get_actions(self, request):
        # Every action changes something: none for a role that only reads the area (the
        # actions' own permissions are checked too, by Django, when one is posted).
        if not self.may_change_area(request):
            return {}
        return super().get_actions(request)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if not is_support(request):
            related = db_field.related_model
            if related._meta.label == "agencies.Team":
                kwargs["queryset"] = related.objects.filter(pk=user_team_id(request))
            elif any(f.name == "team" for f in related._meta.get_fields()):
                kwargs["queryset"] = related._default_manager.filter(team=user_team_id(request))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_exclude(self, request, obj=None):
        exclude = list(super().get_exclude(request, obj) or [])
        if not is_support(request) and self.team_field == "team":
            exclude.append("team")  # an agency user's rows always belong to their team
        return exclude

    def get_list_display(self, request):
        display = super().get_list_display(request)
        if is_support(request):
            return display
        return [name for name in display if name != "team"]

    def get_list_filter(self, request):
        filters = super().get_list_filter(request)
        if is_support(request):
            return filters
        return [f for f in filters if f != "team"]

    def save_model(self, request, obj, form, change):
        if not change and not is_support(request) and self.team_field == "team":
            obj.team_id = user_team_id(request)
        super().save_model(request, obj, form, change)


class ReadOnlyAdmin(admin.ModelAdmin):
    """For records nobody edits in the panel (ledger rows, events)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


if admin.site.is_registered(AuditEntry):
    admin.site.unregister(AuditEntry)  # auditlog's own admin: replaced by the scoped one below


@admin.register(AuditEntry)
class AuditEntryAdmin(TeamScopedAdmin, ReadOnlyAdmin):
    """The activity list: support sees every team's (and support-only records'), an agency
    user their own team's."""

    panel_area = Area.ACTIVITY

    list_display = ["timestamp", "actor_display", "what", "object_link", "changes_summary", "team"]
    list_filter = ["action", ("content_type", admin.RelatedOnlyFieldListFilter), "team"]
    search_fields = ["object_repr", "object_pk", "actor__username", "actor__email"]
    date_hierarchy = "timestamp"
    list_select_related = ["actor", "content_type", "team"]
    readonly_fields = [
        "timestamp",
        "actor_display",
        "what",
        "object_link",
        "changes_table",
        "remote_addr",
        "team",
    ]
    fields = [*readonly_fields]

    # Who is looking, for `actor_display` (display methods get no request); a context variable,
    # so each thread serving the panel has its own.
    _viewer: ContextVar = ContextVar("audit_viewer")

    def changelist_view(self, request, extra_context=None):
        token = self._viewer.set(request)
        try:
            return _rendered(super().changelist_view(request, extra_context))
        finally:
            self._viewer.reset(token)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        token = self._viewer.set(request)
        try:
            return _rendered(super().change_view(request, object_id, form_url, extra_context))
        finally:
            self._viewer.reset(token)

    def get_search_fields(self, request):
        """Agency users find entries by object, not by who made them (support's logins stay
        unknown to them)."""
        return self.search_fields if is_support(request) else ["object_repr", "object_pk"]

    def get_fields(self, request, obj=None):
        """The address an entry was made from: support only."""
        fields = super().get_fields(request, obj)
        return fields if is_support(request) else [f for f in fields if f != "remote_addr"]

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    @admin.display(description=_("who"), ordering="actor__username")
    def actor_display(self, entry):
        return actor_for_people(entry, self._viewer.get())

    @admin.display(description=_("what"))
    def what(self, entry):
        return action_label(entry)

    @admin.display(description=_("object"))
    def object_link(self, entry):
        model = entry.content_type.model_class()
        label = f"{capfirst(model._meta.verbose_name) if model else entry.content_type}: "
        try:
            url = reverse(
                f"admin:{entry.content_type.app_label}_{entry.content_type.model}_history",
                args=[entry.object_pk],
            )
        except Exception:
            return label + entry.object_repr
        return format_html('{}<a href="{}">{}</a>', label, url, entry.object_repr)

    @admin.display(description=_("changes"))
    def changes_summary(self, entry):
        rows = change_display(entry)
        return "; ".join(f"{name}: {old} → {new}" for name, old, new in rows[:4]) + (
            " …" if len(rows) > 4 else ""
        )

    @admin.display(description=_("changes"))
    def changes_table(self, entry):
        return self.changes_summary(entry)


# --- Periodic tasks (django_celery_beat's admin, support only) ----------------------------------


def _periodic_task_admin():
    from django_celery_beat.admin import PeriodicTaskAdmin
    from django_celery_beat.models import PeriodicTask

    def set_enabled(task, enabled: bool):
        task.enabled = enabled
        if not enabled:
            task.last_run_at = None  # as django_celery_beat's own action does
        task.save()  # (not queryset.update): the scheduler and the audit trail see it

    class PanelPeriodicTaskAdmin(AuditedAdminMixin, ConfirmedActionsMixin, PeriodicTaskAdmin):
        """django_celery_beat's admin with confirmed, audited enable/disable (its toggle, which
        disables without asking, is removed)."""

        actions = ["enable_tasks", "disable_tasks", "run_tasks"]

        @admin.action(description=_("Disable selected tasks"))
        def disable_tasks(self, request, queryset):
            return self.confirm_then_run(
                request,
                queryset,
                action="periodic_task_disable",
                title=_("Disable periodic tasks"),
                question=_("Disable these periodic tasks?"),
                describe=lambda task: (
                    _("%(task)s stops running until it is enabled again.") % {"task": task.task}
                    if task.enabled
                    else _("Already disabled: nothing changes.")
                ),
                run=lambda task: set_enabled(task, False),
                done_message=_("Disabled %(object)s."),
            )

        @admin.action(description=_("Enable selected tasks"))
        def enable_tasks(self, request, queryset):
            return self.confirm_then_run(
                request,
                queryset,
                action="periodic_task_enable",
                title=_("Enable periodic tasks"),
                question=_("Enable these periodic tasks?"),
                describe=lambda task: (
                    _("%(task)s runs on its schedule again.") % {"task": task.task}
                    if not task.enabled
                    else _("Already enabled: nothing changes.")
                ),
                run=lambda task: set_enabled(task, True),
                done_message=_("Enabled %(object)s."),
            )

    admin.site.unregister(PeriodicTask)
    admin.site.register(PeriodicTask, PanelPeriodicTaskAdmin)


_periodic_task_admin()
