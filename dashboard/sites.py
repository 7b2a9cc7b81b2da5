"""The panel's site: panel's rules of who may enter (panel/sites.py), with the pages that read
every app. As in HackSoft's Styleguide-Example `custom_admin/sites.py`, the extra URLs come
before the admin's own, and the home page is the admin's index with the dashboard's context."""

from functools import partial

from django.urls import NoReverseMatch, include, path, reverse
from django.utils.translation import gettext_lazy as _

from dashboard.display import home_page_context
from panel.roles import Area
from panel.sites import PanelAdminSite


class DashboardAdminSite(PanelAdminSite):
    def get_urls(self):
        # Imported here, not above: Django builds the site while it discovers the admin
        # modules, and the views' module imports panel.admin, which registers on this site.
        from bookings.models import Booking
        from bookings.report_admin import urls as sales_report_urls
        from dashboard.admin import team_overview_view

        base_urlpatterns = super().get_urls()
        extra_urlpatterns = [
            # Before the team admin's own URLs, which end in a catch-all object URL.
            path(
                "agencies/team/<path:object_id>/overview/",
                self.admin_view(partial(team_overview_view, site=self)),
                name="agencies_team_overview",
            ),
            # The sales report (bookings/report_admin.py) in the wallet's part of the panel,
            # on the bookings' permission: /admin/wallet/sales-report/.
            path("wallet/", include(sales_report_urls(self._registry[Booking]))),
        ]
        return extra_urlpatterns + base_urlpatterns

    def get_app_list(self, request, app_label=None):
        """The admin's list of pages (the menu and the home page), with the wallet's reports
        beside its movements: the statement and the sales report (a page of the bookings app,
        which reads the wallet's ledger), each for who may see its data."""
        from wallet.admin.periods import may_read_figures  # as in get_urls: not at import

        apps = super().get_app_list(request, app_label)
        wallet = next((app for app in apps if app["app_label"] == "wallet"), None)
        if wallet is None:
            return apps
        pages = [
            ("wallet", "transaction", "admin:wallet_statement", _("Statement"), "statement", None),
            (
                "bookings",
                "booking",
                "admin:bookings_sales_report",
                _("Sales and commission report"),
                "salesreport",
                Area.REPORTS,
            ),
        ]
        for label, model_name, url_name, name, object_name, area in pages:
            model_admin = next(
                (
                    admin
                    for model, admin in self._registry.items()
                    if model._meta.app_label == label and model._meta.model_name == model_name
                ),
                None,
            )
            if model_admin is None or not may_read_figures(request, model_admin, area):
                continue
            try:
                url = reverse(url_name, current_app=self.name)
            except NoReverseMatch:
                continue
            wallet["models"].append(
                {
                    "name": name,
                    "object_name": object_name,
                    "perms": {"view": True},
                    "admin_url": url,
                    "add_url": None,
                    "view_only": True,
                }
            )
        return apps

    def index(self, request, extra_context=None):
        """The home page: the agency's day, or support's worklist (dashboard/display.py),
        above the list of every page (templates/admin/index.html)."""
        return super().index(request, {**home_page_context(request), **(extra_context or {})})
