"""The permissions of the two kinds of panel user, each kept in one group synced after
`migrate`: "Agency users" and "Support" (membership of "Support" is the support role).

Which rows an agency user sees is decided by `panel.admin.TeamScopedAdmin`; these permissions
decide only which models and actions they have at all. Later apps add their codenames here."""

from django.contrib.auth.models import Group, Permission

from agencies.models import SUPPORT_GROUP_NAME

AGENCY_GROUP_NAME = "Agency users"

AGENCY_PERMISSIONS = {
    "agencies": [
        "view_team",
        "change_team",
        "view_member",
        "change_member",
        "view_apikey",
        "add_apikey",
        "change_apikey",
        "view_client",
        "add_client",
        "change_client",
        "view_integration",
        "add_integration",
        "change_integration",
        "view_invitation",
        "add_invitation",
        "delete_invitation",
        "view_apirequest",
    ],
    "core": ["view_auditentry"],
    "wallet": [
        "view_wallet",
        "view_transaction",
        "view_recharge",
        "add_recharge",
        "view_reversal",
        "view_payoutkey",
        "add_payoutkey",
        "change_payoutkey",
        "view_withdrawal",
    ],
    "webhooks": [
        "view_event",
        "view_webhookendpoint",
        "add_webhookendpoint",
        "change_webhookendpoint",
        "delete_webhookendpoint",
        "view_delivery",
        "view_deliveryattempt",
    ],
    "bookings": ["view_booking", "view_bookingpassenger", "view_bookingdocument"],
}


# Support works on every app's records (the admins themselves forbid what nobody may do, such
# as editing the ledger), unlocks logins (axes) and manages periodic tasks and panel users.
# Managing groups and permissions stays with superusers.
SUPPORT_APPS = [
    "agencies",
    "wallet",
    "flights",
    "bookings",
    "webhooks",
    "core",
    "django_celery_beat",
    "axes",
]


def agency_group() -> Group:
    group, _ = Group.objects.get_or_create(name=AGENCY_GROUP_NAME)
    wanted = Permission.objects.none()
    for app_label, codenames in AGENCY_PERMISSIONS.items():
        wanted |= Permission.objects.filter(
            content_type__app_label=app_label, codename__in=codenames
        )
    group.permissions.set(wanted)
    return group


def support_group() -> Group:
    group, _ = Group.objects.get_or_create(name=SUPPORT_GROUP_NAME)
    group.permissions.set(Permission.objects.filter(content_type__app_label__in=SUPPORT_APPS))
    return group


def sync_agency_group(sender, **kwargs):
    # post_migrate fires once per app, and each app's permissions exist only from its own
    # signal on: re-sync after every app that contributes some, so the last one completes it.
    if sender.label in AGENCY_PERMISSIONS:
        agency_group()
    if sender.label in SUPPORT_APPS:
        support_group()
