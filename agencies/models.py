import hashlib
import unicodedata
from decimal import Decimal

from django.contrib.auth.models import AbstractUser
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from djmoney.models.fields import MoneyField
from djmoney.models.validators import MinMoneyValidator
from encrypted_fields.fields import EncryptedTextField

from api.versions import latest_version
from core.ids import PrefixedIdField
from panel.roles import TeamRole


class Team(models.Model):
    """A travel agency: the tenant that owns wallets, bookings, keys and webhooks."""

    id = PrefixedIdField(prefix="team")
    name = models.CharField(_("name"), max_length=200)
    markup_percent = models.DecimalField(
        _("markup (%)"),
        max_digits=5,
        decimal_places=2,
        default=Decimal("0.00"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("100"))],
        help_text=_("Percentage added to the BRL base cost of every offer."),
    )
    fee = MoneyField(
        _("fee"),
        max_digits=12,
        decimal_places=2,
        default=Decimal("0.00"),
        default_currency="BRL",
        currency_choices=[("BRL", "BRL")],
        validators=[MinMoneyValidator(0)],
        help_text=_("Fixed fee in BRL added to every offer."),
    )
    # None: the FX_MARGIN_PERCENT setting's (agencies.pricing.team_fx_margin_percent).
    fx_margin_percent = models.DecimalField(
        _("FX margin (%)"),
        max_digits=4,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("20"))],
        help_text=_(
            "The cost of foreign exchange (bank spread, IOF) added to the reference rate of "
            "every fare in another currency; empty: the service's default."
        ),
    )
    tax_id = models.CharField(
        _("CNPJ or CPF"),
        max_length=18,
        blank=True,
        help_text=_("CNPJ or CPF, printed as the payer on boletos."),
    )
    # The agency's own service in its NFS-e (the sales report's export, docs/reports.md): the
    # code its municipality gives the service (LC 116 item 9.02, travel agencies, written as
    # the city hall lists it) and that service's name; blank until the agency sets them.
    municipal_service_code = models.CharField(
        _("municipal service code"),
        max_length=30,
        blank=True,
        help_text=_(
            "Your service's code in your city hall's NFS-e list (LC 116 item 9.02, travel "
            "agencies), e.g. 09.02. Written in the NFS-e export."
        ),
    )
    municipal_service_name = models.CharField(
        _("municipal service name"),
        max_length=255,
        blank=True,
        help_text=_("That service's name, as your city hall lists it."),
    )
    notification_email = models.EmailField(
        _("notification e-mail"),
        blank=True,
        help_text=_("Receives booking and webhook alert e-mails."),
    )
    language = models.CharField(
        _("e-mail language"),
        max_length=5,
        choices=[("pt-br", "Português (Brasil)"), ("en", "English")],
        default="pt-br",
        help_text=_("Language of the e-mails to its customers and to the agency."),
    )
    # What its keys' requests are answered in without an `Api-Version` header (api/versions.py):
    # the latest when the team is created; an owner upgrades it in the panel (never back).
    api_version = models.CharField(
        _("API version"),
        max_length=10,
        default=latest_version,
        help_text=_("The API version of requests without an Api-Version header, and of webhooks."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(markup_percent__gte=0) & models.Q(markup_percent__lte=100),
                name="team_markup_percent_range",
            ),
            models.CheckConstraint(condition=models.Q(fee__gte=0), name="team_fee_not_negative"),
            models.CheckConstraint(
                condition=models.Q(fx_margin_percent__isnull=True)
                | (models.Q(fx_margin_percent__gte=0) & models.Q(fx_margin_percent__lte=20)),
                name="team_fx_margin_percent_range",
            ),
        ]

    def __str__(self):
        return self.name

    def get_additional_data(self):
        return {"team_id": self.pk}  # the audit entry's team (django-auditlog's hook)


SUPPORT_GROUP_NAME = "Support"


class User(AbstractUser):
    """A panel user, of one of two explicit kinds. An agency user has a team and sees only that
    team. Support staff are superusers or members of the "Support" group (a role granted on
    purpose) and have no team. Anyone else (a staff user with neither) sees nothing."""

    class Role(models.TextChoices):
        SUPERUSER = "superuser", _("Superuser")
        SUPPORT = "support", _("Support")
        AGENCY = "agency", _("Agency user")
        NONE = "none", _("No access")

    team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="users",
        verbose_name=_("team"),
    )
    # What an agency user may do in their team's panel (panel/roles.py); support ignores it.
    # Read only until set on purpose: a team's first user is its owner, an invitee gets the
    # role they were invited with.
    team_role = models.CharField(
        _("role in the team"),
        max_length=20,
        choices=TeamRole.choices,
        default=TeamRole.VIEWER,
    )

    @cached_property
    def is_support(self) -> bool:
        # Cached for the request (request.user is loaded once per request).
        if not self.is_active:
            return False
        if self.is_superuser:
            return True
        return (
            self.is_staff
            and self.team_id is None
            and self.groups.filter(name=SUPPORT_GROUP_NAME).exists()
        )

    @property
    def panel_role(self) -> str:
        if self.is_superuser and self.is_active:
            return self.Role.SUPERUSER
        if self.is_support:
            return self.Role.SUPPORT
        if self.is_active and self.is_staff and self.team_id is not None:
            return self.Role.AGENCY
        return self.Role.NONE

    def get_additional_data(self):
        return {"team_id": self.team_id}


class ApiKeyQuerySet(models.QuerySet):
    def find_by_secret(self, secret: str):
        return self.select_related("team").filter(secret_hash=hash_secret(secret)).first()


def hash_secret(secret: str) -> str:
    # Keys carry ~238 random bits, so a fast hash is enough: nothing to brute-force.
    return hashlib.sha256(secret.encode()).hexdigest()


class ApiKey(models.Model):
    id = PrefixedIdField(prefix="key")
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="api_keys", verbose_name=_("team")
    )
    name = models.CharField(_("name"), max_length=100, default="Default")
    live_mode = models.BooleanField(_("live mode"))
    secret_hash = models.CharField(max_length=64, unique=True, editable=False)
    display_prefix = models.CharField(
        _("key prefix"),
        max_length=24,
        editable=False,
        help_text=_("The start of the key, to recognise it."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        User,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True, editable=False)
    # What a restricted key may do (api/key_permissions.py PERMISSIONS); empty: everything,
    # as every key made before restricted keys. Chosen when the key is made, never changed.
    permissions = models.JSONField(_("permissions"), default=list, blank=True)

    objects = ApiKeyQuerySet.as_manager()

    class Meta:
        verbose_name = _("API key")
        verbose_name_plural = _("API keys")
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.name} ({self.display_prefix}…)"

    def get_additional_data(self):
        return {"team_id": self.team_id}

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    @property
    def has_full_access(self) -> bool:
        return not self.permissions


def name_folded(text: str) -> str:
    """`text` as names are searched: without accents, case folded, spaces collapsed
    ("  JOÃO  da Silva" → "joao da silva")."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


class Client(models.Model):
    """The agency's customer a booking is made for: a record the agency keeps (API
    `/clients`, the panel), or one made from a booking's lead passenger (docs/clients.md)."""

    id = PrefixedIdField(prefix="cli")
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="clients", verbose_name=_("team")
    )
    live_mode = models.BooleanField(_("live mode"))
    # Holds a lead passenger's "given family" (each as long as BookingPassenger's name columns).
    full_name = models.CharField(_("full name"), max_length=255)
    email = models.EmailField(_("e-mail"))
    phone_number = models.CharField(_("phone number"), max_length=20, blank=True)
    # CPF (11 digits) or CNPJ (14), stored as digits only (core.tax_ids); blank when the
    # agency has none. Reports read these digits.
    tax_id = models.CharField(_("CPF or CNPJ"), max_length=14, blank=True)
    # The address, as Brazilian addresses are written; in Brazil the postal code is a CEP
    # (stored as its 8 digits) and the state a UF (SP).
    postal_code = models.CharField(_("postal code (CEP)"), max_length=16, blank=True)
    street = models.CharField(_("street"), max_length=120, blank=True)
    street_number = models.CharField(_("number"), max_length=20, blank=True)
    complement = models.CharField(_("complement"), max_length=60, blank=True)
    district = models.CharField(_("district"), max_length=60, blank=True)
    city = models.CharField(_("city"), max_length=60, blank=True)
    state = models.CharField(_("state"), max_length=60, blank=True)
    country = models.CharField(_("country"), max_length=2, default="BR")
    # The agency's own key-value data, bounded as Stripe bounds it (core.metadata).
    metadata = models.JSONField(_("metadata"), default=dict, blank=True)
    # full_name as searched (name_folded), kept by save().
    search_name = models.CharField(max_length=255, editable=False, default="")
    # Made by a booking from its lead passenger (not by the agency): erased with the last of
    # its bookings (bookings/retention.py).
    made_from_booking = models.BooleanField(_("made from a booking"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("client")
        verbose_name_plural = _("clients")
        ordering = ["full_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "live_mode", "email"], name="client_email_unique_per_team_mode"
            )
        ]

    def __str__(self):
        return f"{self.full_name} <{self.email}>"

    def save(self, *args, **kwargs):
        self.search_name = name_folded(self.full_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "full_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "search_name"}
        super().save(*args, **kwargs)

    def get_additional_data(self):
        return {"team_id": self.team_id}


class Integration(models.Model):
    """A connection to an outside supplier (Duffel) holding the team's own credentials."""

    class Provider(models.TextChoices):
        DUFFEL = "duffel", "Duffel"

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        DISCONNECTED = "disconnected", _("Disconnected")

    id = PrefixedIdField(prefix="itg")
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="integrations", verbose_name=_("team")
    )
    live_mode = models.BooleanField(_("live mode"))
    provider = models.CharField(_("provider"), max_length=20, choices=Provider.choices)
    access_token = EncryptedTextField(
        _("access token"), help_text=_("Stored encrypted; never shown again.")
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.ACTIVE
    )
    connected_at = models.DateTimeField(_("connected at"), auto_now_add=True)
    disconnected_at = models.DateTimeField(_("disconnected at"), null=True, blank=True)

    class Meta:
        verbose_name = _("integration")
        verbose_name_plural = _("integrations")
        constraints = [
            models.UniqueConstraint(
                fields=["team", "live_mode", "provider"],
                condition=models.Q(status="active"),
                name="one_active_integration_per_provider",
            )
        ]

    def __str__(self):
        return f"{self.get_provider_display()} ({self.status})"

    def get_additional_data(self):
        return {"team_id": self.team_id}


class Invitation(models.Model):
    """An agency user's invitation of a colleague. The link carries a signature of this row's id;
    the row decides whether it still works: until `expires_at`, and once (`accepted_at`)."""

    id = PrefixedIdField(prefix="inv")
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("team")
    )
    email = models.EmailField(_("e-mail"))
    invited_by = models.ForeignKey(
        User, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("invited by")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)
    role = models.CharField(
        _("role in the team"),
        max_length=20,
        choices=TeamRole.choices,
        default=TeamRole.AGENT,
        help_text=_("What they may do in the panel; an owner can change it later."),
    )
    user = models.ForeignKey(
        User,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("user created"),
    )

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at"]

    def __str__(self):
        return self.email

    @property
    def status(self) -> str:
        if self.accepted_at is not None:
            return "accepted"
        if self.expires_at <= timezone.now():
            return "expired"
        return "pending"

    def get_additional_data(self):
        return {"team_id": self.team_id}


# Longest path kept of a request (the URL's path only, never its query string, which may carry
# a client's name or CPF in a search): an API path with its ids is well under this.
API_REQUEST_PATH_LENGTH = 200
API_REQUEST_ERROR_CODE_LENGTH = 40


class ApiRequest(models.Model):
    """One API request as its agency's developers look it up (docs/request-log.md): what was
    asked and answered, never a body. Written in batches by agencies/request_log.py, purged
    after API_REQUEST_LOG_DAYS. The team and key are plain ids, without a database constraint:
    the log outlives nothing it names (a purged row goes before anybody misses it), and a
    deleted team's rows need no cascade through millions of rows; they expire like the rest."""

    id = models.BigAutoField(primary_key=True)
    created_at = models.DateTimeField(_("time"))
    team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
        verbose_name=_("team"),
    )
    api_key = models.ForeignKey(
        ApiKey,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
        verbose_name=_("API key"),
    )
    live_mode = models.BooleanField(_("live mode"), null=True, blank=True)
    method = models.CharField(_("method"), max_length=7)
    path = models.CharField(_("path"), max_length=API_REQUEST_PATH_LENGTH)
    status = models.PositiveSmallIntegerField(_("status"))
    latency_ms = models.PositiveIntegerField(_("duration (ms)"))
    request_id = models.CharField(_("request id"), max_length=36, blank=True)
    error_code = models.CharField(
        _("error code"), max_length=API_REQUEST_ERROR_CODE_LENGTH, blank=True
    )

    class Meta:
        verbose_name = _("API request")
        verbose_name_plural = _("API requests")
        ordering = ["-created_at"]
        indexes = [
            # A team's latest requests (the panel's list, every filter narrows it), and the
            # daily purge's range of old rows.
            models.Index(fields=["team", "-created_at"], name="apirequest_team_created"),
            models.Index(fields=["created_at"], name="apirequest_created"),
            models.Index(fields=["request_id"], name="apirequest_request_id"),
        ]

    def __str__(self):
        return f"{self.method} {self.path} {self.status}"


class Member(User):
    """A team's panel user as the team's owner manages them (agencies/admin.py MemberAdmin):
    their role and whether they may still log in. Support manages users on the User pages."""

    class Meta:
        proxy = True
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
