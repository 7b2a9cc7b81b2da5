import secrets
import string
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from djmoney.money import Money

from agencies.models import ApiKey, Integration, Team, User, hash_secret
from agencies.permissions import agency_group
from core.exceptions import Conflict
from core.timestamps import iso_utc
from wallet.services import wallet_create
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
    """A team with its live wallet, an owner panel user and one test and one live key."""
    team = Team(
        name=name,
        markup_percent=markup_percent,
        fee=Money(fee, "BRL"),
        notification_email=owner_email,
        tax_id=tax_id,
    )
    team.full_clean()
    team.save()
    wallet_create(team=team)
    owner = agency_user_create(team=team, email=owner_email, password=owner_password)
    _, test_key = api_key_create(
        team=team, live_mode=False, name="Default test key", created_by=owner
    )
    _, live_key = api_key_create(
        team=team, live_mode=True, name="Default live key", created_by=owner
    )
    return TeamCreated(team=team, owner=owner, test_key=test_key, live_key=live_key)


def agency_user_create(*, team: Team, email: str, password: str | None = None) -> User:
    """A panel user of `team` (they can log into the admin and see only their team)."""
    user = User(username=email, email=email, team=team, is_staff=True)
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
    *, team: Team, live_mode: bool, name: str = "Default", created_by: User | None = None
) -> tuple[ApiKey, str]:
    """Returns the key and its secret; the secret is not stored and cannot be shown again."""
    mode = "live" if live_mode else "test"
    secret = f"sk_{mode}_" + "".join(secrets.choice(KEY_ALPHABET) for _ in range(KEY_RANDOM_LENGTH))
    key = ApiKey.objects.create(
        team=team,
        live_mode=live_mode,
        name=name,
        created_by=created_by,
        secret_hash=hash_secret(secret),
        display_prefix=secret[:16],
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


def api_key_event_object(key: ApiKey) -> dict:
    return {
        "id": key.id,
        "object": "api_key",
        "name": key.name,
        "live_mode": key.live_mode,
        "display_prefix": key.display_prefix,
        "created_at": iso_utc(key.created_at),
        "last_used_at": iso_utc(key.last_used_at),
        "revoked_at": iso_utc(key.revoked_at),
    }


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


def integration_event_object(integration: Integration) -> dict:
    return {
        "id": integration.id,
        "object": "integration",
        "provider": integration.provider,
        "status": integration.status,
        "live_mode": integration.live_mode,
        "connected_at": iso_utc(integration.connected_at),
        "disconnected_at": iso_utc(integration.disconnected_at),
    }
