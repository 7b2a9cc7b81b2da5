"""The panel's site: panel's rules of who may enter (panel/sites.py), with the pages that read
every app. As in HackSoft's Styleguide-Example `custom_admin/sites.py`, the extra URLs come
before the admin's own, and the home page is the admin's index with the dashboard's context."""

from functools import partial

from django.urls import path

from dashboard.display import home_page_context
from panel.sites import PanelAdminSite


class DashboardAdminSite(PanelAdminSite):
    def get_urls(self):
        # Imported here, not above: Django builds the site while it discovers the admin
        # modules, and the views' module imports panel.admin, which registers on this site.
        from dashboard.admin import team_overview_view

        base_urlpatterns = super().get_urls()
        extra_urlpatterns = [
            # Before the team admin's own URLs, which end in a catch-all object URL.
            path(
                "agencies/team/<path:object_id>/overview/",
                self.admin_view(partial(team_overview_view, site=self)),
                name="agencies_team_overview",
            ),
        ]
        return extra_urlpatterns + base_urlpatterns

    def index(self, request, extra_context=None):
        """The home page: the agency's day, or support's worklist (dashboard/display.py),
        above the list of every page (templates/admin/index.html)."""
        return super().index(request, {**home_page_context(request), **(extra_context or {})})
