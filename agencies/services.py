import secrets
import string
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeGuard

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from djmoney.money import Money

from agencies.models import ApiKey, Client, Integration, Invitation, Team, User, hash_secret
from agencies.payloads import api_key_event_object, integration_event_object
from agencies.permissions import agency_group
from agencies.tasks import send_invitation_email as send_invitation_email_task
from api.key_permissions import PERMISSIONS
from api.versions import HEADER as API_VERSION_HEADER
from api.versions import InvalidApiVersion, check_version
from core.emails import email_message
from core.exceptions import Conflict
from core.i18n import sao_paulo_time_for_people
from panel.roles import TeamRole
from webhooks.models import EventType
from webhooks.services import event_record

KEY_ALPHABET = string.ascii_letters + string.digits
KEY_RANDOM_LENGTH = 40  # ~238 bits


@dataclass(frozen=True)
class TeamCreated:
    team: Team
    owner: User
    test_key: str
    live_key: str


@transaction.atomic
def team_create(
    *,
    name: str,
    owner_email: str,
    markup_percent: Decimal = Decimal("0"),
    fee: Decimal = Decimal("0"),
    owner_password: str | None = None,
    tax_id: str = "",
) -> TeamCreated:
    """A team, an owner panel user and one test and one live key. Saving the team opens its
    live wallet in this transaction (wallet/receivers.py)."""
    team = Team(  # type: ignore[misc]  # MoneyField takes Money; stubs say Decimal
        name=name,
        markup_percent=markup_percent,
        fee=Money(fee, "BRL"),
        notification_email=owner_email,
        tax_id=tax_id,
    )
    team.full_clean()
    team.save()
    owner = agency_user_create(
        team=team, email=owner_email, password=owner_password, role=TeamRole.OWNER
    )
    _, test_key = api_key_create(
        team=team, live_mode=False, name="Default test key", created_by=owner
    )
    _, live_key = api_key_create(
        team=team, live_mode=True, name="Default live key", created_by=owner
    )
    return TeamCreated(team=team, owner=owner, test_key=test_key, live_key=live_key)


def team_api_version_upgrade(*, team: Team, version: str) -> Team:
    """Pin the team to a later API version (api/versions.py): its keys' requests without an
    `Api-Version` header are answered in it from now on. Never back: an integration written
    for the new shapes would break. Its webhook endpoints keep the version each was created
    with (their receivers did not ask for new shapes)."""
    check_version(version)
    if version <= team.api_version:
        raise InvalidApiVersion(
            details={API_VERSION_HEADER: f"The team is on {team.api_version}; pick a later one."}
        )
    team.api_version = version
    team.save(update_fields=["api_version"])  # the keys' cache follows (agencies/apps.py)
    return team


def agency_user_create(*, team: Team, email: str, role: str, password: str | None = None) -> User:
    """A panel user of `team` with `role` in it (they can log into the admin and see only their
    team, and there what the role allows: panel/roles.py)."""
    user = User(username=email, email=email, team=team, is_staff=True, team_role=role)
    if password:
        try:  # the same validators as the panel's password forms (AUTH_PASSWORD_VALIDATORS)
            validate_password(password, user)
        except ValidationError as exc:
            raise ValidationError({"password": exc.messages}) from None
        user.set_password(password)
    else:
        user.set_unusable_password()  # they set one through "forgot password" or support
    user.full_clean()
    user.save()
    user.groups.add(agency_group())
    return user


@transaction.atomic
def api_key_create(
    *,
    team: Team,
    live_mode: bool,
    name: str = "Default",
    created_by: User | None = None,
    permissions: Iterable[str] = (),
) -> tuple[ApiKey, str]:
    """Returns the key and its secret; the secret is not stored and cannot be shown again.
    With `permissions`, a restricted key (api/key_permissions.py); without, full access."""
    wanted = set(permissions)
    unknown = wanted - set(PERMISSIONS)
    if unknown:
        raise ValidationError({"permissions": f"Unknown permissions: {', '.join(sorted(unknown))}"})
    mode = "live" if live_mode else "test"
    secret = f"sk_{mode}_" + "".join(secrets.choice(KEY_ALPHABET) for _ in range(KEY_RANDOM_LENGTH))
    key = ApiKey.objects.create(
        team=team,
        live_mode=live_mode,
        name=name,
        created_by=created_by,
        secret_hash=hash_secret(secret),
        display_prefix=secret[:16],
        permissions=[permission for permission in PERMISSIONS if permission in wanted],
    )
    event_record(
        team=team,
        live_mode=live_mode,
        type=EventType.API_KEY_CREATED,
        data_object=api_key_event_object(key),
    )
    return key, secret


@transaction.atomic
def api_key_revoke(*, api_key: ApiKey) -> ApiKey:
    key = ApiKey.objects.select_for_update().get(pk=api_key.pk)
    if key.revoked_at is not None:
        return key  # revoking twice changes nothing and says nothing twice
    key.revoked_at = timezone.now()
    key.save(update_fields=["revoked_at"])
    event_record(
        team=key.team,
        live_mode=key.live_mode,
        type=EventType.API_KEY_REVOKED,
        data_object=api_key_event_object(key),
        previous_attributes={"revoked_at": None},
    )
    return key


class IntegrationAlreadyConnected(Conflict):
    code = "integration_already_connected"
    message = "An integration with this provider is already connected"


@transaction.atomic
def integration_connect(
    *, team: Team, live_mode: bool, provider: str, access_token: str
) -> Integration:
    try:
        with transaction.atomic():  # the partial unique constraint decides, not a prior read
            integration = Integration.objects.create(
                team=team, live_mode=live_mode, provider=provider, access_token=access_token
            )
    except IntegrityError:
        raise IntegrationAlreadyConnected() from None
    event_record(
        team=team,
        live_mode=live_mode,
        type=EventType.INTEGRATION_CONNECTED,
        data_object=integration_event_object(integration),
    )
    return integration


@transaction.atomic
def integration_disconnect(*, integration: Integration) -> Integration:
    integration = Integration.objects.select_for_update().get(pk=integration.pk)
    if integration.status == Integration.Status.DISCONNECTED:
        return integration
    integration.status = Integration.Status.DISCONNECTED
    integration.disconnected_at = timezone.now()
    integration.save(update_fields=["status", "disconnected_at"])
    event_record(
        team=integration.team,
        live_mode=integration.live_mode,
        type=EventType.INTEGRATION_DISCONNECTED,
        data_object=integration_event_object(integration),
        previous_attributes={"status": Integration.Status.ACTIVE},
    )
    return integration


@transaction.atomic
def integration_replace(
    *, team: Team, live_mode: bool, provider: str, access_token: str
) -> Integration:
    """Connect `provider` with a new access token, disconnecting the active integration first
    (events integration.disconnected, then integration.connected), all or nothing."""
    active = Integration.objects.select_for_update().filter(
        team=team, live_mode=live_mode, provider=provider, status=Integration.Status.ACTIVE
    )
    for integration in active:
        integration_disconnect(integration=integration)
    return integration_connect(
        team=team, live_mode=live_mode, provider=provider, access_token=access_token
    )


# --- Invitations: an agency user invites a colleague, who sets their own password -------------

INVITATION_SALT = "agencies.invitation"


class InvitationUserExists(Conflict):
    code = "user_exists"
    message = "A panel user with this e-mail already exists"


class InvitationAlreadyMember(Conflict):
    code = "already_team_member"
    message = "This person is already a member of this team"


class InvitationInvalid(Conflict):
    code = "invitation_invalid"
    message = "This invitation link has expired or has already been used"


def invitation_create(
    *, team: Team, email: str, invited_by: User | None, role: str = TeamRole.AGENT
) -> Invitation:
    """Record the invitation and e-mail its link after commit. The link works until
    PANEL_INVITATION_VALIDITY has passed, and once. An address that already has a panel user
    in another team is invited like any other (the inviter is never told that it exists
    anywhere); its e-mail then says so instead of carrying a link (`invitation_send`). A member
    of this very team is refused: the inviter sees their team's people anyway. The invitee
    joins with `role`."""
    email = User.objects.normalize_email(email).strip()
    if User.objects.filter(username__iexact=email, team=team).exists():
        raise InvitationAlreadyMember()
    with transaction.atomic():
        invitation = Invitation.objects.create(
            team=team,
            email=email,
            invited_by=invited_by,
            role=role,
            expires_at=timezone.now() + settings.PANEL_INVITATION_VALIDITY,
        )
        send_invitation_email_task.delay_on_commit(invitation.pk)  # type: ignore[attr-defined]  # DjangoTask
    return invitation


def invitation_token(invitation: Invitation) -> str:
    # A signature of the row's id: unforgeable, and the row says whether it still works.
    return signing.dumps(invitation.pk, salt=INVITATION_SALT)


def invitation_from_token(token: str) -> Invitation | None:
    try:
        pk = signing.loads(token, salt=INVITATION_SALT)
    except signing.BadSignature:
        return None
    return Invitation.objects.select_related("team").filter(pk=pk).first()


def invitation_usable(invitation: Invitation | None) -> TypeGuard[Invitation]:
    return invitation is not None and invitation.status == "pending"


def inviter_name(user: User | None) -> str:
    """Who invited, as the invitee knows them: their name, else their e-mail address."""
    if user is None:
        return ""
    return " ".join(user.get_full_name().split()) or user.email


def invitation_email_message(*, invitation: Invitation, link: str) -> EmailMultiAlternatives:
    """The invitation's e-mail, built and not sent, in the team's language: who invited whom to
    which team, the `link` and its last moment (Brasília time); without a link, that the address
    has an account already. From the service (the panel's name); a reply goes to the person who
    invited, else to support."""
    team = invitation.team
    inviter = inviter_name(invitation.invited_by)

    def subject() -> str:
        if inviter:
            return _("%(inviter)s invited you to the team %(team)s") % {
                "inviter": inviter,
                "team": team.name,
            }
        return _("You are invited to the team %(team)s") % {"team": team.name}

    return email_message(
        template="invitation",
        subject=subject,
        context=lambda: {
            "invitation": invitation,
            "link": link,
            "has_account": not link,
            "inviter": inviter,
            "expires": sao_paulo_time_for_people(invitation.expires_at),
        },
        to=[invitation.email],
        team=team,
        from_service=True,
        reply_to=[invitation.invited_by.email]
        if invitation.invited_by and invitation.invited_by.email
        else None,
    )


def invitation_send(*, invitation_id: str) -> bool:
    """E-mail the invitation's link once (the row's `sent_at`)."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update(of=("self",))
            .select_related("team", "invited_by")
            .get(pk=invitation_id)
        )
        if invitation.sent_at is not None or not invitation_usable(invitation):
            return False
        has_account = User.objects.filter(username__iexact=invitation.email).exists()
        # No link for someone who has an account already: a panel user belongs to one team.
        link = (
            ""
            if has_account
            else settings.PUBLIC_BASE_URL
            + reverse("invitation_accept", args=[invitation_token(invitation)])
        )
        invitation_email_message(invitation=invitation, link=link).send()
        invitation.sent_at = timezone.now()
        invitation.save(update_fields=["sent_at"])
    return True


def invitation_accept(*, invitation: Invitation, password: str) -> User:
    """Create the invitee's agency user with the password they chose; the link is then used.
    Under a row lock, so two submissions of the same link create one user."""
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if not invitation_usable(invitation):
            raise InvitationInvalid()
        if User.objects.filter(username__iexact=invitation.email).exists():
            raise InvitationUserExists()
        user = agency_user_create(
            team=invitation.team, email=invitation.email, password=password, role=invitation.role
        )
        invitation.accepted_at = timezone.now()
        invitation.user = user
        invitation.save(update_fields=["accepted_at", "user"])
    return user


# --- Members: the owner sets each one's role, and who may still log in (docs/roles.md) --------


class LastOwner(Conflict):
    code = "last_owner"
    # The panel shows it in the user's language (gettext_noop: marked, kept in English here).
    message = gettext_noop("A team keeps at least one active owner: make someone else owner first")


def _lock_team_members(team_id: str | None) -> list[User]:
    """The team's users, locked in pk order: two owners demoting each other at once cannot
    both pass the last-owner check."""
    return list(User.objects.select_for_update(of=("self",)).filter(team_id=team_id).order_by("pk"))


def _keeps_an_owner(members: list[User], *, changed: User, role: str, active: bool) -> bool:
    return any(
        (role if m.pk == changed.pk else m.team_role) == TeamRole.OWNER
        and (active if m.pk == changed.pk else m.is_active)
        for m in members
    )


def member_role_change(*, member: User, role: str) -> User:
    """Give a team member another role; the team's last active owner keeps theirs."""
    TeamRole(role)  # a role that exists, or ValueError
    with transaction.atomic():
        members = _lock_team_members(member.team_id)
        if not _keeps_an_owner(members, changed=member, role=role, active=member.is_active):
            raise LastOwner()
        User.objects.filter(pk=member.pk).update(team_role=role)
    member.refresh_from_db()
    return member


def member_active_set(*, member: User, active: bool) -> User:
    """Let a team member log in again, or not any more (their records stay); the team's last
    active owner cannot be deactivated."""
    with transaction.atomic():
        members = _lock_team_members(member.team_id)
        if not _keeps_an_owner(members, changed=member, role=member.team_role, active=active):
            raise LastOwner()
        User.objects.filter(pk=member.pk).update(is_active=active)
    member.refresh_from_db()
    return member


# --- Clients (docs/clients.md) --------------------------------------------------------------

# What an agency sets on its clients, over the API and in the panel (metadata: a dict), in the
# order the panel's form shows them.
CLIENT_FIELDS = (
    "full_name",
    "email",
    "phone_number",
    "tax_id",
    "postal_code",
    "street",
    "street_number",
    "complement",
    "district",
    "city",
    "state",
    "country",
    "metadata",
)


class ClientEmailTaken(Conflict):
    """Another client of the team in this mode has the e-mail (e-mails are unique there)."""

    code = "client_email_taken"
    message = "A client with this e-mail already exists"


def client_create(*, team: Team, live_mode: bool, **fields: Any) -> Client:
    """A client record of the team in this mode, with `fields` (CLIENT_FIELDS, already
    checked: the tax id as digits, the e-mail in lower case). E-mails are unique per team and
    mode: another client's is `client_email_taken`."""
    _check_client_fields(fields)
    return _client_saved(Client(team=team, live_mode=live_mode, **fields))


def client_update(*, client: Client, **changes: Any) -> Client:
    """The client with `changes` (CLIENT_FIELDS, already checked; `metadata` as it is to be
    stored, already merged) written; another client's e-mail is `client_email_taken`."""
    _check_client_fields(changes)
    for name, value in changes.items():
        setattr(client, name, value)
    return _client_saved(client)


def _check_client_fields(fields: dict[str, Any]) -> None:
    unknown = set(fields).difference(CLIENT_FIELDS)
    if unknown:
        raise TypeError(f"Not a client field: {', '.join(sorted(unknown))}")


def _client_saved(client: Client) -> Client:
    try:
        with transaction.atomic():
            client.save()
    except IntegrityError:
        raise ClientEmailTaken() from None
    return client
