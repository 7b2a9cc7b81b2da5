"""The wallet statement in the panel: the page, its CSV and its PDF (wallet/display.py
computes, wallet/statement_exports.py writes the files).

Mounted by TransactionAdmin.get_urls under /admin/wallet/transaction/statement/, behind the
admin's login and the ledger's view permission. An agency user always gets their own team's
statement (a `team` in the query is ignored); support chooses the team. Live and test data are
never mixed: `mode=live` (the default) or `mode=test`.
"""

from math import ceil

from django.conf import settings
from django.http import HttpResponse, StreamingHttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import urlencode
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from wallet import statement_exports
from wallet.admin.periods import TeamPeriodRequest, admin_page_urls
from wallet.display import Statement, statement_get

PAGE_SIZE = 100
# A PDF is for reading and filing; beyond this many rows the CSV is the right tool
# (settings.WALLET_STATEMENT_PDF_MAX_MOVEMENTS overrides it).
PDF_MAX_MOVEMENTS = 3000


def pdf_max_movements() -> int:
    return getattr(settings, "WALLET_STATEMENT_PDF_MAX_MOVEMENTS", PDF_MAX_MOVEMENTS)


def urls(model_admin) -> list:
    return admin_page_urls(
        model_admin,
        [
            ("statement/", statement_page, "wallet_statement"),
            ("statement/csv/", statement_csv, "wallet_statement_csv"),
            ("statement/pdf/", statement_pdf, "wallet_statement_pdf"),
        ],
    )


class _Request(TeamPeriodRequest):
    """The statement's query (wallet/admin/periods.py), and the statement once it is valid."""

    def __init__(self, request, model_admin):
        super().__init__(request, model_admin)
        self.statement: Statement | None = None
        if self.ready and self.team is not None and self.period is not None:
            self.statement = statement_get(
                team=self.team, live_mode=self.live_mode, period=self.period
            )


def statement_page(request, model_admin, *, status: int = 200, export_error=None):
    asked = _Request(request, model_admin)
    statement = asked.statement
    context = {
        **model_admin.admin_site.each_context(request),
        "title": _("Wallet statement"),
        "subtitle": None,  # the team's name heads the statement itself
        "opts": model_admin.model._meta,
        "form": asked.form,
        "support": asked.support,
        "team": asked.team,
        "teams": asked.teams(),
        "statement": statement,
        "export_error": export_error,
        "unknown_team": asked.unknown_team,
        "media": model_admin.media,
    }
    if statement is not None:
        pages = max(1, ceil(statement.movement_count / PAGE_SIZE))
        try:
            page = min(max(1, int(request.GET.get("page", "1"))), pages)
        except ValueError:
            page = 1
        base = reverse("admin:wallet_statement", current_app=model_admin.admin_site.name)
        lines = list(statement.lines(offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE))
        context.update(
            {
                "lines": lines,
                "last_position": (page - 1) * PAGE_SIZE + len(lines),
                "page": page,
                "pages": pages,
                "first_position": (page - 1) * PAGE_SIZE + 1,
                "previous_url": f"{base}?{asked.query(page=page - 1)}" if page > 1 else None,
                "next_url": f"{base}?{asked.query(page=page + 1)}" if page < pages else None,
                "live_url": f"{base}?{asked.query(mode='live')}",
                "test_url": f"{base}?{asked.query(mode='test')}",
                "csv_url": reverse("admin:wallet_statement_csv") + "?" + asked.query(),
                "pdf_url": reverse("admin:wallet_statement_pdf") + "?" + asked.query(),
                "pdf_too_long": statement.movement_count > pdf_max_movements(),
                "pdf_max": pdf_max_movements(),
                "debits_signed": -statement.total_debits,
                "notional_note": statement_exports.notional_note(),
            }
        )
    request.current_app = model_admin.admin_site.name
    if asked.form.errors or asked.unknown_team:
        status = 400
    return TemplateResponse(request, "admin/wallet/statement.html", context, status=status)


def _file_name(statement: Statement, extension: str) -> str:
    word = translation.gettext("statement")
    mode = "" if statement.live_mode else "-test"
    team = slugify(statement.team.name) or statement.team.pk
    period = f"{statement.period.start.isoformat()}_{statement.period.end.isoformat()}"
    return f"{slugify(word)}-{team}{mode}-{period}.{extension}"


def statement_csv(request, model_admin):
    asked = _Request(request, model_admin)
    if asked.statement is None:
        return statement_page(request, model_admin)
    language = translation.get_language() or settings.LANGUAGE_CODE
    response = StreamingHttpResponse(
        statement_exports.statement_csv(asked.statement, language=language),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{_file_name(asked.statement, "csv")}"'
    response["Cache-Control"] = "private, no-store"
    return response


def statement_pdf(request, model_admin):
    asked = _Request(request, model_admin)
    if asked.statement is None:
        return statement_page(request, model_admin)
    if asked.statement.movement_count > pdf_max_movements():
        return statement_page(
            request,
            model_admin,
            status=400,
            export_error=_(
                "This period has %(count)s movements; a PDF holds at most %(max)s. Choose a "
                "shorter period, or download the CSV."
            )
            % {"count": asked.statement.movement_count, "max": pdf_max_movements()},
        )
    language = translation.get_language() or settings.LANGUAGE_CODE
    document = statement_exports.statement_pdf(
        asked.statement, language=language, generated_at=timezone.now()
    )
    response = HttpResponse(document, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{_file_name(asked.statement, "pdf")}"'
    response["Cache-Control"] = "private, no-store"
    return response


def statement_url(*, team=None, live_mode: bool | None = None) -> str:
    """The statement page's address (for links from the wallet pages)."""
    params = {}
    if team is not None:
        params["team"] = getattr(team, "pk", team)
    if live_mode is not None:
        params["mode"] = "live" if live_mode else "test"
    url = reverse("admin:wallet_statement")
    return f"{url}?{urlencode(params)}" if params else url
