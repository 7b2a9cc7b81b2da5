"""The dashboard's pages in the panel besides the home page (dashboard/sites.py mounts them):
support's overview of one team."""

from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from agencies.models import Team
from dashboard.display import team_overview_page_context
from panel.admin import is_support


def team_overview_view(request, object_id, *, site):
    """Support's page of one team: wallet, keys, users, integrations, webhooks and recent
    bookings, each linking to its list (dashboard/display.py). The team is read through the
    team admin, as its own pages read it."""
    if not is_support(request):
        raise PermissionDenied
    team_admin = site.get_model_admin(Team)
    team = team_admin.get_object(request, unquote(object_id))
    if team is None:
        raise Http404
    context = {
        **site.each_context(request),
        **team_overview_page_context(request, team),
        "title": _("Overview: %(team)s") % {"team": team.name},
        "subtitle": None,
        "opts": team_admin.opts,
        "original": team,
    }
    request.current_app = site.name
    return TemplateResponse(request, "admin/agencies/team/overview.html", context)
