"""The sales and commission report in the panel: the page, its CSV, its PDF and the NFS-e export
(bookings/reports.py computes, bookings/report_exports.py writes the files).

Mounted by the dashboard's site under /admin/wallet/sales-report/ (dashboard/sites.py: the page
reads the bookings and the wallet, and sits in the menu beside the wallet's statement), behind
the admin's login and the reports' area (panel/roles.py: owners, finance, viewers). The query is the
statement's (wallet/admin/periods.py): an agency user always gets their own team, support
chooses one; `mode=live` (the default) or `mode=test`; `start` and `end` São Paulo days, at
most MAX_REPORT_DAYS apart."""

from math import ceil

from django.conf import settings
from django.http import HttpResponse, StreamingHttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from bookings import report_exports
from bookings.reports import MAX_REPORT_DAYS, SalesReport, report_period, sales_report
from panel.roles import Area
from wallet.admin.periods import TeamPeriodForm, TeamPeriodRequest, admin_page_urls

PAGE_SIZE = 100
# As the statement's: beyond this many bookings the CSV is the right tool
# (settings.SALES_REPORT_PDF_MAX_ROWS overrides it).
PDF_MAX_ROWS = 3000


def pdf_max_rows() -> int:
    return getattr(settings, "SALES_REPORT_PDF_MAX_ROWS", PDF_MAX_ROWS)


def urls(model_admin) -> list:
    return admin_page_urls(
        model_admin,
        [
            ("sales-report/", report_page, "bookings_sales_report"),
            ("sales-report/csv/", report_csv, "bookings_sales_report_csv"),
            ("sales-report/pdf/", report_pdf, "bookings_sales_report_pdf"),
            ("sales-report/nfse/", report_nfse, "bookings_sales_report_nfse"),
        ],
    )


class ReportForm(TeamPeriodForm):
    period_rule = staticmethod(report_period)


class _Request(TeamPeriodRequest):
    def __init__(self, request, model_admin):
        super().__init__(request, model_admin, form_class=ReportForm, area=Area.REPORTS)
        self.report: SalesReport | None = None
        if self.ready and self.team is not None and self.period is not None:
            self.report = sales_report(team=self.team, live_mode=self.live_mode, period=self.period)


def report_page(request, model_admin, *, status: int = 200, export_error=None):
    asked = _Request(request, model_admin)
    report = asked.report
    context = {
        **model_admin.admin_site.each_context(request),
        "title": _("Sales and commission report"),
        "subtitle": None,
        "opts": model_admin.model._meta,
        "form": asked.form,
        "support": asked.support,
        "team": asked.team,
        "teams": asked.teams(),
        "report": report,
        "max_days": MAX_REPORT_DAYS,
        "export_error": export_error,
        "unknown_team": asked.unknown_team,
        "media": model_admin.media,
        "statement_url": reverse("admin:wallet_statement") + "?" + asked.query(),
    }
    if report is not None:
        count = len(report.rows)
        pages = max(1, ceil(count / PAGE_SIZE))
        try:
            page = min(max(1, int(request.GET.get("page", "1"))), pages)
        except ValueError:
            page = 1
        base = reverse("admin:bookings_sales_report", current_app=model_admin.admin_site.name)
        first = (page - 1) * PAGE_SIZE
        totals = report.totals
        context.update(
            {
                "rows": report.rows[first : first + PAGE_SIZE],
                "page": page,
                "pages": pages,
                "first_position": first + 1,
                "last_position": min(first + PAGE_SIZE, count),
                "previous_url": f"{base}?{asked.query(page=page - 1)}" if page > 1 else None,
                "next_url": f"{base}?{asked.query(page=page + 1)}" if page < pages else None,
                "live_url": f"{base}?{asked.query(mode='live')}",
                "test_url": f"{base}?{asked.query(mode='test')}",
                "csv_url": reverse("admin:bookings_sales_report_csv") + "?" + asked.query(),
                "pdf_url": reverse("admin:bookings_sales_report_pdf") + "?" + asked.query(),
                "nfse_url": reverse("admin:bookings_sales_report_nfse") + "?" + asked.query(),
                "pdf_too_long": count > pdf_max_rows(),
                "pdf_max": pdf_max_rows(),
                "client_total": totals.client_amount + totals.changes_extras_client_amount,
                "cost_total": totals.base_cost_brl + totals.changes_extras_cost_brl,
                "sale_revenue": totals.markup_amount + totals.fee_amount,
                "municipal_service_missing": not asked.team.municipal_service_code
                if asked.team
                else False,
            }
        )
    request.current_app = model_admin.admin_site.name
    if asked.form.errors or asked.unknown_team:
        status = 400
    return TemplateResponse(request, "admin/bookings/sales_report.html", context, status=status)


def _file_name(report: SalesReport, word: str, extension: str) -> str:
    mode = "" if report.live_mode else "-test"
    team = slugify(report.team.name) or report.team.pk
    period = f"{report.period.start.isoformat()}_{report.period.end.isoformat()}"
    return f"{slugify(word)}-{team}{mode}-{period}.{extension}"


def report_csv(request, model_admin):
    asked = _Request(request, model_admin)
    if asked.report is None:
        return report_page(request, model_admin)
    language = translation.get_language() or settings.LANGUAGE_CODE
    response = StreamingHttpResponse(
        report_exports.sales_csv(asked.report, language=language),
        content_type="text/csv; charset=utf-8",
    )
    name = _file_name(asked.report, translation.gettext("sales"), "csv")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


def report_nfse(request, model_admin):
    asked = _Request(request, model_admin)
    if asked.report is None:
        return report_page(request, model_admin)
    return nfse_response(asked.report)


def nfse_response(report: SalesReport) -> HttpResponse:
    """The NFS-e export as a download (the panel's link and the API answer the same file)."""
    response = HttpResponse(
        b"".join(report_exports.nfse_csv(report)), content_type="text/csv; charset=utf-8"
    )
    name = _file_name(report, "nfse", "csv")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


def report_pdf(request, model_admin):
    asked = _Request(request, model_admin)
    if asked.report is None:
        return report_page(request, model_admin)
    if len(asked.report.rows) > pdf_max_rows():
        return report_page(
            request,
            model_admin,
            status=400,
            export_error=_(
                "This period has %(count)s bookings; a PDF holds at most %(max)s. Choose a "
                "shorter period, or download the CSV."
            )
            % {"count": len(asked.report.rows), "max": pdf_max_rows()},
        )
    language = translation.get_language() or settings.LANGUAGE_CODE
    document = report_exports.sales_pdf(
        asked.report, language=language, generated_at=timezone.now()
    )
    response = HttpResponse(document, content_type="application/pdf")
    name = _file_name(asked.report, translation.gettext("sales"), "pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response
