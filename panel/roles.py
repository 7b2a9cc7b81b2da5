"""The roles of an agency user in their team, and what each may do in the panel: the one matrix
every panel page and action asks (docs/roles.md).

The panel's pages are grouped in areas; an admin class names its area (`panel_area`) and a
custom page asks `may_view`/`may_change` for its own. A role views an area, changes it (views,
adds, changes, deletes, runs its actions), or has no access to it at all: the page answers 403.
Support staff are not agency users: roles do not apply to them (they keep what their group
grants). The API is not governed by roles: an API key has its own permissions."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class TeamRole(models.TextChoices):
    OWNER = "owner", _("Owner")
    FINANCE = "finance", _("Finance")
    AGENT = "agent", _("Agent")
    DEVELOPER = "developer", _("Developer")
    VIEWER = "viewer", _("Viewer (read only)")


class Area(models.TextChoices):
    """What the panel's pages are about, as roles see them."""

    SETTINGS = "settings", _("Team settings, members, invitations and integrations")
    PAYOUT = "payout", _("Payout PIX key")
    WALLET = "wallet", _("Wallet, statements, recharges and withdrawals")
    REPORTS = "reports", _("Sales and commission report")
    BOOKINGS = "bookings", _("Bookings and clients")
    DEVELOPERS = "developers", _("API keys, webhooks and events")
    ACTIVITY = "activity", _("Activity (the audit trail)")


VIEW, CHANGE = "view", "change"

# Each role's areas: VIEW (read only) or CHANGE (everything the page offers). An area not named
# is refused. The owner decides who the team is and where its money goes (settings, payout
# key); finance moves money within the team's wallet; agents sell; developers connect systems;
# a viewer reads everything and changes nothing.
ROLE_AREAS: dict[str, dict[str, str]] = {
    TeamRole.OWNER: {area: CHANGE for area in Area.values},
    TeamRole.FINANCE: {
        Area.WALLET: CHANGE,
        Area.REPORTS: VIEW,
        Area.PAYOUT: VIEW,
    },
    TeamRole.AGENT: {Area.BOOKINGS: CHANGE},
    TeamRole.DEVELOPER: {Area.DEVELOPERS: CHANGE},
    TeamRole.VIEWER: {area: VIEW for area in Area.values},
}


def _role_of(user) -> str | None:
    """The agency user's role, or None for support (who is not governed by roles)."""
    if getattr(user, "is_support", False):
        return None
    return getattr(user, "team_role", None) or TeamRole.VIEWER


def may_view(user, area: str | None) -> bool:
    """Whether `user` may read the pages of `area` (support: always; an admin without an area:
    owners only, so that a page nobody placed fails closed)."""
    role = _role_of(user)
    if role is None:
        return True
    if area is None:
        return role == TeamRole.OWNER
    return area in ROLE_AREAS.get(role, {})


def may_change(user, area: str | None) -> bool:
    """Whether `user` may add, change, delete and act in `area`."""
    role = _role_of(user)
    if role is None:
        return True
    if area is None:
        return role == TeamRole.OWNER
    return ROLE_AREAS.get(role, {}).get(area) == CHANGE


def role_label(role: str) -> str:
    """A role as people read it ("Financeiro"); an unknown value as it is."""
    try:
        return str(TeamRole(role).label)
    except ValueError:
        return role
