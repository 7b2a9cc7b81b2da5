from decimal import Decimal

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.ids import PrefixedIdField
from core.json_fields import EncryptedJSONField


class Booking(models.Model):
    """An order (`ord_`) made from a stored offer. It keeps its own copy of everything it shows
    (offers are deleted an hour after they expire)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        CONFIRMED = "confirmed", _("Confirmed")
        TICKETED = "ticketed", _("Ticketed")
        CANCELLED = "cancelled", _("Cancelled")
        EXPIRED = "expired", _("Expired")
        FAILED = "failed", _("Failed")

    class Type(models.TextChoices):
        HOLD = "hold", _("Hold")
        INSTANT = "instant", _("Instant")

    id = PrefixedIdField(prefix="ord")
    team = models.ForeignKey(
        "agencies.Team", on_delete=models.PROTECT, related_name="bookings", verbose_name=_("team")
    )
    live_mode = models.BooleanField(_("live mode"))
    client = models.ForeignKey(
        "agencies.Client",
        on_delete=models.PROTECT,
        related_name="bookings",
        verbose_name=_("client"),
    )
    # One booking per offer: an offer is never booked twice, whatever retries or races happen.
    offer_id = models.CharField(_("offer"), max_length=40, unique=True)
    # The Idempotency-Key of the request that created it: a retry whose first attempt died
    # after the booking was written finds it by this key instead of "offer already booked".
    idempotency_key = models.CharField(max_length=255, blank=True, default="")
    type = models.CharField(_("type"), max_length=7, choices=Type.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    supplier = models.CharField(_("supplier"), max_length=20)
    supplier_order_id = models.CharField(_("supplier order id"), max_length=200, blank=True)
    booking_reference = models.CharField(_("booking reference"), max_length=20, blank=True)
    total_amount = models.DecimalField(_("total"), max_digits=14, decimal_places=2)
    total_currency = models.CharField(_("currency"), max_length=3)
    base_amount = models.DecimalField(_("base fare"), max_digits=14, decimal_places=2)
    tax_amount = models.DecimalField(_("taxes"), max_digits=14, decimal_places=2)
    exchange_rate = models.DecimalField(_("exchange rate"), max_digits=18, decimal_places=8)
    # How the offer's rate was quoted: the reference and the FX margin in `exchange_rate`
    # (agencies.pricing). A reference of None: booked before FX margins, the rate is the
    # reference (and the margin 0).
    fx_reference_rate = models.DecimalField(
        _("reference exchange rate"), max_digits=18, decimal_places=8, null=True, blank=True
    )
    fx_margin_percent = models.DecimalField(
        _("FX margin (%)"), max_digits=4, decimal_places=2, default=Decimal("0.00")
    )
    base_cost_brl = models.DecimalField(
        _("cost in BRL"),
        max_digits=14,
        decimal_places=2,
        help_text=_("What the wallet is debited."),
    )
    # The agency's price as the search showed it; the wallet is never debited these.
    markup_amount = models.DecimalField(_("markup"), max_digits=14, decimal_places=2)
    fee_amount = models.DecimalField(_("fee"), max_digits=14, decimal_places=2)
    client_amount = models.DecimalField(
        _("client price"),
        max_digits=14,
        decimal_places=2,
        help_text=_("What the agency's customer pays: cost in BRL + markup + fee."),
    )
    owner = models.JSONField(_("airline"))
    slices = models.JSONField(_("slices"))
    conditions = models.JSONField(_("conditions"))
    departing_at = models.DateTimeField(_("departing at"), help_text=_("First departure."))
    payment_required_by = models.DateTimeField(_("payment required by"), null=True, blank=True)
    price_guarantee_expires_at = models.DateTimeField(
        _("price guaranteed until"), null=True, blank=True
    )
    metadata = models.JSONField(_("metadata"), default=dict, blank=True)
    # The extras bought (bags, seats), as the API shows them (flights.services_extras): with the
    # booking, and after it (BookingServicesPurchase). Their cost is in the amounts above.
    services = models.JSONField(_("services"), default=list, blank=True)
    failure_reason = models.CharField(_("failure reason"), max_length=255, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    synced_at = models.DateTimeField(_("synced at"), null=True, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    ticketed_at = models.DateTimeField(_("ticketed at"), null=True, blank=True)
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)
    reminder_sent_at = models.DateTimeField(_("reminder sent at"), null=True, blank=True)
    # The supplier's answer to an order or a payment could not be trusted (lost, 5xx, unreadable,
    # accepted but unconfirmed): the money stays where it is until the reconcile job finds out.
    outcome_unknown_since = models.DateTimeField(
        _("supplier outcome unknown since"), null=True, blank=True
    )
    outcome_note = models.CharField(_("supplier outcome note"), max_length=255, blank=True)
    outcome_checked_at = models.DateTimeField(
        _("checked with the supplier at"), null=True, blank=True
    )
    # One check with the supplier at a time per booking (the job on several workers, support's
    # "check now", a retried request): the holder of this lease acts.
    outcome_check_lease_until = models.DateTimeField(null=True, blank=True)
    # When the retention job erased the passengers' personal data (bookings/retention.py).
    personal_data_erased_at = models.DateTimeField(
        _("personal data erased at"), null=True, blank=True
    )

    class Meta:
        verbose_name = _("booking")
        verbose_name_plural = _("bookings")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["team", "live_mode", "-created_at"]),
            models.Index(fields=["status", "payment_required_by"]),
            models.Index(
                fields=["outcome_unknown_since"],
                condition=models.Q(outcome_unknown_since__isnull=False),
                name="booking_outcome_unknown",
            ),
        ]

    def __str__(self):
        return f"{self.booking_reference or self.id} ({self.get_status_display()})"

    def get_additional_data(self):
        return {"team_id": self.team_id}  # the team of its audit entries (django-auditlog)


class BookingPassenger(models.Model):
    # The values a passenger is given in POST /bookings (the columns keep no choices: the
    # values are checked when the booking is made).
    class Gender(models.TextChoices):
        M = "m", _("Male")
        F = "f", _("Female")

    class Title(models.TextChoices):
        MR = "mr"
        MRS = "mrs"
        MS = "ms"
        MISS = "miss"
        DR = "dr"

    class DocumentType(models.TextChoices):
        """An identity document's type (in `identity_documents`)."""

        PASSPORT = "passport"
        TAX_ID = "tax_id"
        KNOWN_TRAVELER_NUMBER = "known_traveler_number"

    booking = models.ForeignKey(
        Booking, on_delete=models.CASCADE, related_name="passengers", verbose_name=_("booking")
    )
    position = models.PositiveSmallIntegerField(_("position"))
    passenger_id = models.CharField(
        _("passenger"), max_length=40, help_text=_("The offer's pas_ id.")
    )
    type = models.CharField(_("type"), max_length=20)
    title = models.CharField(_("title"), max_length=5, blank=True)
    given_name = models.CharField(_("given name"), max_length=100)
    family_name = models.CharField(_("family name"), max_length=100)
    gender = models.CharField(_("gender"), max_length=1)
    born_on = models.DateField(_("born on"), null=True)  # null once the personal data is erased
    email = models.EmailField(_("e-mail"))
    phone_number = models.CharField(_("phone number"), max_length=20)
    # Passport and ID numbers: encrypted at rest.
    identity_documents = EncryptedJSONField(_("identity documents"), default=list, blank=True)
    loyalty_programme_accounts = models.JSONField(
        _("loyalty programme accounts"), default=list, blank=True
    )
    infant_passenger_id = models.CharField(_("infant"), max_length=40, blank=True)
    supplier_passenger_id = models.CharField(_("supplier passenger id"), max_length=100, blank=True)

    class Meta:
        verbose_name = _("passenger")
        verbose_name_plural = _("passengers")
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["booking", "passenger_id"], name="booking_passenger_unique"
            )
        ]

    def __str__(self):
        return f"{self.given_name} {self.family_name}"


class BookingDocument(models.Model):
    booking = models.ForeignKey(
        Booking, on_delete=models.CASCADE, related_name="documents", verbose_name=_("booking")
    )
    passenger_id = models.CharField(_("passenger"), max_length=40)
    type = models.CharField(_("type"), max_length=30, default="electronic_ticket")
    unique_identifier = models.CharField(_("number"), max_length=40)

    class Meta:
        verbose_name = _("ticket")
        verbose_name_plural = _("tickets")
        constraints = [
            # Issuing twice (a retried task) can never add a second ticket for a passenger.
            models.UniqueConstraint(
                fields=["booking", "passenger_id", "type"],
                name="one_document_per_passenger_and_type",
            ),
        ]

    def __str__(self):
        return self.unique_identifier


class BookingEmail(models.Model):
    """One automatic e-mail of a booking: the row is written with the change that triggers it
    (so it is never lost), the task sends it and stamps `sent_at` (so it is sent once)."""

    class Kind(models.TextChoices):
        CREATED = "booking_created", _("Booking confirmation")
        TICKETED = "ticket_issued", _("Ticket issued")
        REMINDER = "payment_reminder", _("Payment reminder")
        CANCELLED = "booking_cancelled", _("Booking cancelled")
        FAILED = "booking_failed", _("Booking failed")
        SERVICES_ADDED = "services_added", _("Extras added")
        CHANGED = "booking_changed", _("Flights changed")

    booking = models.ForeignKey(
        Booking, on_delete=models.CASCADE, related_name="emails", verbose_name=_("booking")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # When it was last queued (a kind sent on each change is queued again): a booking's
    # e-mails go out in this order, whichever task runs first (bookings.emails.email_send).
    queued_at = models.DateTimeField(_("queued at"), default=timezone.now)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("booking e-mail")
        verbose_name_plural = _("booking e-mails")
        constraints = [
            models.UniqueConstraint(
                fields=["booking", "kind"], name="one_email_per_booking_and_kind"
            )
        ]

    def __str__(self):
        return f"{self.kind} for {self.booking_id}"


class BookingCancellation(models.Model):
    """A cancellation of a booking at its supplier (`bcn_`): the supplier's quote, then what it
    confirmed refunding (Duffel's OrderCancellation, docs/after-sale.md). The wallet is
    credited only from a confirmed one, once."""

    class Status(models.TextChoices):
        QUOTED = "quoted", _("Quoted")
        # Sent to the supplier for confirmation, its answer not in yet.
        CONFIRMING = "confirming", _("Confirming")
        # The confirmation's answer was lost or unreadable: the reconcile job finds out.
        UNKNOWN = "unknown", _("Outcome unknown")
        CONFIRMED = "confirmed", _("Confirmed")
        EXPIRED = "expired", _("Expired")

    id = PrefixedIdField(prefix="bcn")
    booking = models.ForeignKey(
        Booking,
        on_delete=models.CASCADE,
        related_name="cancellations",
        verbose_name=_("booking"),
    )
    supplier_cancellation_id = models.CharField(
        _("supplier cancellation id"), max_length=200, blank=True
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUOTED
    )
    # What the supplier says: the quote's, replaced by the confirmed cancellation's.
    refund_amount = models.DecimalField(
        _("refund"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    refund_currency = models.CharField(_("refund currency"), max_length=3, blank=True)
    refund_to = models.CharField(_("refunded to"), max_length=30)
    airline_credits = models.JSONField(_("airline credits"), default=list, blank=True)
    # total_amount - refund_amount, in the booking's currency (None for a booking not paid).
    penalty_amount = models.DecimalField(
        _("penalty"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    penalty_currency = models.CharField(_("penalty currency"), max_length=3, blank=True)
    # The quote's refund, kept when the confirmed one differs.
    quoted_refund_amount = models.DecimalField(
        _("quoted refund"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    # What the wallet is (quoted) or was (confirmed) credited, in BRL.
    wallet_credit_amount = models.DecimalField(
        _("wallet credit"), max_digits=14, decimal_places=2, default=0
    )
    transaction_id = models.CharField(_("transaction"), max_length=40, blank=True)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    # A newer quote of the booking exists: the supplier confirms only the most recent one.
    superseded = models.BooleanField(default=False)
    confirming_since = models.DateTimeField(null=True, blank=True)
    outcome_note = models.CharField(_("supplier outcome note"), max_length=255, blank=True)
    outcome_checked_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("cancellation")
        verbose_name_plural = _("cancellations")
        ordering = ["-created_at", "-id"]
        constraints = [
            # A booking is cancelled once: one confirmed (or being confirmed) cancellation.
            models.UniqueConstraint(
                fields=["booking"],
                condition=models.Q(status__in=["confirming", "unknown", "confirmed"]),
                name="one_confirmed_cancellation_per_booking",
            ),
        ]
        indexes = [
            models.Index(
                fields=["status"],
                condition=models.Q(status__in=["confirming", "unknown"]),
                name="cancellation_unsettled",
            )
        ]

    def __str__(self):
        return f"{self.id} ({self.status})"


class BookingAirlineChange(models.Model):
    """A change the airline made to a booking's flights (`aic_`; Duffel's
    AirlineInitiatedChange, docs/after-sale.md): its slices before (`removed`) and after
    (`added`), in the booking's slice shape. Recorded once per supplier change, whatever the
    number of checks or webhook retries that report it."""

    class ActionTaken(models.TextChoices):
        ACCEPTED = "accepted", _("Accepted")
        CANCELLED = "cancelled", _("Cancelled")
        CHANGED = "changed", _("Changed")

    id = PrefixedIdField(prefix="aic")
    booking = models.ForeignKey(
        Booking,
        on_delete=models.CASCADE,
        related_name="airline_changes",
        verbose_name=_("booking"),
    )
    supplier_change_id = models.CharField(_("supplier change id"), max_length=200, unique=True)
    added = models.JSONField(_("new flights"), default=list)
    removed = models.JSONField(_("previous flights"), default=list)
    available_actions = models.JSONField(_("available actions"), default=list, blank=True)
    action_taken = models.CharField(
        _("action taken"), max_length=10, choices=ActionTaken.choices, blank=True
    )
    action_taken_at = models.DateTimeField(_("action taken at"), null=True, blank=True)
    # When the booking's slices were moved to `added` (once, after an acceptance read back).
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)
    supplier_created_at = models.DateTimeField(null=True, blank=True)
    email_sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(_("detected at"), auto_now_add=True)

    class Meta:
        verbose_name = _("airline change")
        verbose_name_plural = _("airline changes")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(
                fields=["booking"],
                condition=models.Q(action_taken=""),
                name="airline_change_unanswered",
            )
        ]

    def __str__(self):
        return f"{self.id} ({self.action_taken or 'unanswered'})"


class BookingServicesPurchase(models.Model):
    """Extras (bags) added to a booking after the sale (`bsv_`, Duffel's order services):
    debited from the wallet before the supplier is asked (reference `booking_services`), and
    settled on its answer: confirmed (the booking shows them), failed (refunded), or unknown
    until the reconcile job reads the order (docs/extras.md)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        UNKNOWN = "unknown", _("Outcome unknown")
        CONFIRMED = "confirmed", _("Confirmed")
        FAILED = "failed", _("Failed")

    id = PrefixedIdField(prefix="bsv")
    booking = models.ForeignKey(
        Booking,
        on_delete=models.CASCADE,
        related_name="services_purchases",
        verbose_name=_("booking"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    services = models.JSONField(_("services"), default=list)
    total_amount = models.DecimalField(_("total"), max_digits=14, decimal_places=2)
    total_currency = models.CharField(_("currency"), max_length=3)
    base_cost_brl = models.DecimalField(_("cost in BRL"), max_digits=14, decimal_places=2)
    markup_amount = models.DecimalField(_("markup"), max_digits=14, decimal_places=2)
    client_amount = models.DecimalField(_("client price"), max_digits=14, decimal_places=2)
    # The order's total once the services are in: how an uncertain answer is settled.
    expected_order_total = models.DecimalField(max_digits=14, decimal_places=2)
    outcome_note = models.CharField(_("supplier outcome note"), max_length=255, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("services purchase")
        verbose_name_plural = _("services purchases")
        ordering = ["-created_at", "-id"]
        constraints = [
            # One purchase at a time per booking: the next waits for this one's answer.
            models.UniqueConstraint(
                fields=["booking"],
                condition=models.Q(status__in=["pending", "unknown"]),
                name="one_unsettled_services_purchase_per_booking",
            ),
        ]

    def __str__(self):
        return f"{self.id} ({self.status})"


class BookingChangeRequest(models.Model):
    """A request to change a booking's flights at its supplier (`ocr_`, Duffel's
    OrderChangeRequest): the slices to remove and add, and the offers the airline made for it
    (docs/after-sale.md)."""

    id = PrefixedIdField(prefix="ocr")
    booking = models.ForeignKey(
        Booking,
        on_delete=models.CASCADE,
        related_name="change_requests",
        verbose_name=_("booking"),
    )
    supplier_request_id = models.CharField(_("supplier change request id"), max_length=200)
    slices = models.JSONField(_("slices"), help_text=_("{remove: [{slice_id}], add: [...]}"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("change request")
        verbose_name_plural = _("change requests")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return self.id


class BookingChangeOffer(models.Model):
    """One of the airline's offers for a change request (`oco_`, Duffel's OrderChangeOffer),
    and, once confirmed, the change made from it (Duffel's OrderChange): priced in BRL at the
    booking's own exchange rate; the wallet is debited a positive difference (when confirming)
    or credited a negative one refunded in cash (once confirmed), once."""

    class Status(models.TextChoices):
        OFFERED = "offered", _("Offered")
        # Sent to the supplier for confirmation, its answer not in yet.
        CONFIRMING = "confirming", _("Confirming")
        # The confirmation's answer was lost or unreadable: the reconcile job finds out.
        UNKNOWN = "unknown", _("Outcome unknown")
        CONFIRMED = "confirmed", _("Confirmed")
        # The supplier certainly did not make it (refused, expired): any debit was returned.
        FAILED = "failed", _("Not made")

    id = PrefixedIdField(prefix="oco")
    change_request = models.ForeignKey(
        BookingChangeRequest,
        on_delete=models.CASCADE,
        related_name="offers",
        verbose_name=_("change request"),
    )
    booking = models.ForeignKey(
        Booking,
        on_delete=models.CASCADE,
        related_name="change_offers",
        verbose_name=_("booking"),
    )
    supplier_offer_id = models.CharField(_("supplier change offer id"), max_length=200)
    supplier_change_id = models.CharField(_("supplier order change id"), max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OFFERED
    )
    # {add: [<Slice>], remove: [<Slice>]}: the slices as the booking shows them.
    slices = models.JSONField(_("slices"))
    change_total_amount = models.DecimalField(_("change total"), max_digits=14, decimal_places=2)
    change_total_currency = models.CharField(_("currency"), max_length=3)
    penalty_amount = models.DecimalField(
        _("penalty"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    penalty_currency = models.CharField(_("penalty currency"), max_length=3, blank=True)
    new_total_amount = models.DecimalField(_("new total"), max_digits=14, decimal_places=2)
    new_total_currency = models.CharField(_("new total currency"), max_length=3)
    refund_to = models.CharField(_("refunded to"), max_length=30, blank=True)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    exchange_rate = models.DecimalField(_("exchange rate"), max_digits=18, decimal_places=8)
    # The booking's (Booking.fx_reference_rate, fx_margin_percent), kept with its rate.
    fx_reference_rate = models.DecimalField(
        _("reference exchange rate"), max_digits=18, decimal_places=8, null=True, blank=True
    )
    fx_margin_percent = models.DecimalField(
        _("FX margin (%)"), max_digits=4, decimal_places=2, default=Decimal("0.00")
    )
    change_cost_brl = models.DecimalField(_("change cost in BRL"), max_digits=14, decimal_places=2)
    # The agency's price of the change (docs/after-sale.md "Pricing a change"): the wallet is
    # never debited these.
    markup_amount = models.DecimalField(_("markup"), max_digits=14, decimal_places=2)
    fee_amount = models.DecimalField(_("fee"), max_digits=14, decimal_places=2)
    client_change_amount = models.DecimalField(
        _("client price of the change"), max_digits=14, decimal_places=2
    )
    # What the wallet was debited (positive) or credited (negative) for it, in BRL.
    wallet_amount = models.DecimalField(
        _("wallet movement"), max_digits=14, decimal_places=2, default=0
    )
    confirming_since = models.DateTimeField(null=True, blank=True)
    outcome_note = models.CharField(_("supplier outcome note"), max_length=255, blank=True)
    outcome_checked_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("change offer")
        verbose_name_plural = _("change offers")
        ordering = ["created_at", "id"]
        constraints = [
            # One change of a booking at a time: none confirmed while another is unsettled.
            models.UniqueConstraint(
                fields=["booking"],
                condition=models.Q(status__in=["confirming", "unknown"]),
                name="one_unsettled_change_per_booking",
            ),
        ]
        indexes = [
            models.Index(
                fields=["status"],
                condition=models.Q(status__in=["confirming", "unknown"]),
                name="change_unsettled",
            )
        ]

    def __str__(self):
        return f"{self.id} ({self.status})"
