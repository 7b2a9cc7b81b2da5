"""What a panel page of a team's figures over a period asks for, checked: the team the user may
see, live or test data, and a period of São Paulo days typed `dd/mm/aaaa`. The wallet statement
(wallet/admin/statement.py) and the sales report (bookings/report_admin.py) read their query
with it, so that both pages take the same dates, modes and teams the same way.

An agency user always gets their own team (a `team` in the query is ignored); support chooses
the team (an unknown id is said, 400). Live and test data are never mixed: `mode=live` (the
default) or `mode=test`. Without dates: this month to date; only an end date: from the first of
its month; only a start: up to today."""

from collections.abc import Callable
from datetime import date

from django import forms
from django.core.exceptions import PermissionDenied
from django.urls import path
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _

from agencies.models import Team
from core.timestamps import business_date
from panel.admin import is_support, user_team_id
from panel.roles import may_view
from wallet.display import (
    StatementPeriod,
    StatementPeriodError,
    month_to_date,
    statement_period,
)

DATE_INPUT_FORMATS = ["%d/%m/%Y", "%Y-%m-%d"]  # dd/mm/aaaa as typed; ISO from links


class TeamPeriodForm(forms.Form):
    """The period and the mode; `period_rule` turns two days into a period or says why not
    (the statement's: at most 5 years)."""

    period_rule: Callable[..., StatementPeriod] = staticmethod(statement_period)

    start = forms.DateField(
        label=_("From"),
        required=False,
        input_formats=DATE_INPUT_FORMATS,
        error_messages={"invalid": _("Enter the date as dd/mm/yyyy, such as 01/11/2026.")},
    )
    end = forms.DateField(
        label=_("To"),
        required=False,
        input_formats=DATE_INPUT_FORMATS,
        error_messages={"invalid": _("Enter the date as dd/mm/yyyy, such as 30/11/2026.")},
    )
    mode = forms.ChoiceField(
        label=_("Data"),
        required=False,
        choices=[("live", _("Live data")), ("test", _("Test data"))],
    )

    def __init__(self, *args, today: date, **kwargs):
        super().__init__(*args, **kwargs)
        self.today = today
        for name in ("start", "end"):
            self.fields[name].widget.attrs.update(
                {
                    "placeholder": _("dd/mm/yyyy"),
                    "inputmode": "numeric",
                    "autocomplete": "off",
                    "size": 10,
                    "maxlength": 10,
                }
            )

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        default = month_to_date(self.today)
        start = data.get("start") or (default.start if not data.get("end") else None)
        end = data.get("end") or self.today
        if start is None:  # only the end given: from the first of its month
            start = end.replace(day=1)
        try:
            data["period"] = self.period_rule(start=start, end=end)
        except StatementPeriodError as error:
            raise forms.ValidationError(error.message, code=error.code) from None
        data["live_mode"] = data.get("mode") != "test"
        return data


def admin_page_urls(model_admin, pages: list[tuple[str, Callable, str]]) -> list:
    """URL patterns of panel pages that are plain views `view(request, model_admin)` (the
    statement's, the sales report's), behind the admin site's login and permission check:
    `pages` is (route, view, name)."""
    site = model_admin.admin_site

    def admin_view(function):
        def wrapped(request):
            return function(request, model_admin)

        return site.admin_view(wrapped)

    return [path(route, admin_view(function), name=name) for route, function, name in pages]


def may_read_figures(request, model_admin, area: str | None = None) -> bool:
    """Whether the user may read a page of figures: its model admin's view permission, or, for
    a page of its own area (the sales report: reports), that area's (panel/roles.py)."""
    if area is None:
        return model_admin.has_view_permission(request)
    on_a_team = is_support(request) or user_team_id(request) is not None
    return on_a_team and may_view(request.user, area)


def today() -> date:
    return business_date(timezone.now())


def format_day(day: date) -> str:
    return day.strftime("%d/%m/%Y")


class TeamPeriodRequest:
    """What a request asks for, checked: `team` (None while support has not chosen one),
    `period` and `live_mode` once the form is valid; `ready` when all are there (`form.errors`
    say what is wrong otherwise)."""

    def __init__(
        self,
        request,
        model_admin,
        *,
        form_class: type[TeamPeriodForm] = TeamPeriodForm,
        area: str | None = None,
    ):
        if not may_read_figures(request, model_admin, area):
            raise PermissionDenied
        self.support = is_support(request)
        self.unknown_team = False
        now = today()
        data = request.GET.copy()
        if not data.get("start") and not data.get("end"):
            default = month_to_date(now)
            data["start"], data["end"] = format_day(default.start), format_day(default.end)
        self.form = form_class(data, today=now)
        self.team = self._team(request)
        valid = self.form.is_valid()
        self.period: StatementPeriod | None = self.form.cleaned_data["period"] if valid else None
        self.live_mode: bool = self.form.cleaned_data["live_mode"] if valid else True
        self.ready = valid and self.team is not None

    def _team(self, request):
        if not self.support:
            return Team.objects.filter(pk=user_team_id(request)).first()
        chosen = request.GET.get("team", "").strip()
        team = Team.objects.filter(pk=chosen).first() if chosen else None
        self.unknown_team = bool(chosen) and team is None
        return team

    def query(self, **changes) -> str:
        """The query string of these figures (team, mode, period), with `changes`."""
        params = {}
        if self.ready and self.period is not None:
            params = {
                "start": self.period.start.isoformat(),
                "end": self.period.end.isoformat(),
                "mode": "live" if self.live_mode else "test",
            }
        if self.support and self.team is not None:
            params["team"] = self.team.pk
        params.update({k: v for k, v in changes.items() if v is not None})
        return urlencode(params)

    def teams(self):
        """The teams support chooses from (none for an agency user)."""
        return Team.objects.order_by("name").only("id", "name") if self.support else []
