"""The panel is multi-tenant: support staff see every team, agency users only their own.

Also the panel's shared display pieces: status labels, money columns, the live/test switch and
bounded lists of related rows (docs/decisions.md "Panel")."""

from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.money import money_display

admin.site.site_header = _("Agency back office")
admin.site.site_title = _("Agency back office")
admin.site.index_title = _("Control panel")
admin.site.site_url = None  # no public site behind the panel: no "View site" link

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


class PanelAdmin(admin.ModelAdmin):
    """The panel's list conventions: São Paulo times in two lines, the data mode in the title."""

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


class TeamScopedAdmin(PanelAdmin):
    """Scopes an admin to the logged-in agency user's team (rows, foreign-key choices, the team
    of new rows). `team_field` is the lookup from the model to its team."""

    team_field = "team"

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_support:
            return queryset
        return queryset.filter(**{self.team_field: request.user.team_id})

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if not request.user.is_support:
            related = db_field.related_model
            if related._meta.label == "agencies.Team":
                kwargs["queryset"] = related.objects.filter(pk=request.user.team_id)
            elif any(f.name == "team" for f in related._meta.get_fields()):
                kwargs["queryset"] = related._default_manager.filter(team=request.user.team_id)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_exclude(self, request, obj=None):
        exclude = list(super().get_exclude(request, obj) or [])
        if not request.user.is_support and self.team_field == "team":
            exclude.append("team")  # an agency user's rows always belong to their team
        return exclude

    def get_list_display(self, request):
        display = super().get_list_display(request)
        if request.user.is_support:
            return display
        return [name for name in display if name != "team"]

    def get_list_filter(self, request):
        filters = super().get_list_filter(request)
        if request.user.is_support:
            return filters
        return [f for f in filters if f != "team"]

    def save_model(self, request, obj, form, change):
        if not change and not request.user.is_support and self.team_field == "team":
            obj.team_id = request.user.team_id
        super().save_model(request, obj, form, change)


class ReadOnlyAdmin(admin.ModelAdmin):
    """For records nobody edits in the panel (ledger rows, events)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
