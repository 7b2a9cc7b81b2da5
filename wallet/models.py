from decimal import Decimal

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.ids import PrefixedIdField
from core.money import money_display

# The sandbox wallet of test mode: a constant, whatever test transactions happen.
TEST_MODE_BALANCE = Decimal("5000.00")
LOW_BALANCE_THRESHOLD = Decimal("500.00")


class PaymentMethod(models.TextChoices):
    PIX = "pix", "PIX"
    BOLETO = "boleto", "Boleto"


class Wallet(models.Model):
    """A team's live BRL wallet. Test mode has no wallet row: its balance is a constant.
    `balance` only ever changes together with a ledger row (wallet.services)."""

    team = models.OneToOneField(
        "agencies.Team", on_delete=models.PROTECT, related_name="wallet", verbose_name=_("team")
    )
    balance = models.DecimalField(
        _("balance"), max_digits=14, decimal_places=2, default=Decimal("0.00")
    )
    currency = models.CharField(_("currency"), max_length=3, default="BRL", editable=False)
    last_transaction_at = models.DateTimeField(_("last transaction at"), null=True, blank=True)
    # How many ledger rows moved this balance; each live transaction keeps its number, which
    # orders the balance_after chain exactly as the row lock serialised the movements.
    movement_count = models.PositiveBigIntegerField(_("movements"), default=0)
    # What reversals of recharges took that the balance could not cover (docs/reversals.md):
    # the sum of the reversals' `debt_outstanding`, changed under this row's lock. A wallet in
    # debt is restricted, its balance 0.00, and every credit pays the debt first.
    debt = models.DecimalField(
        _("debt"),
        max_digits=14,
        decimal_places=2,
        default=Decimal("0.00"),
        help_text=_("Reversed recharges the balance could not cover; paid by the next credits."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("wallet")
        verbose_name_plural = _("wallets")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(balance__gte=0), name="wallet_balance_not_negative"
            ),
            models.CheckConstraint(
                condition=models.Q(debt__gte=0), name="wallet_debt_not_negative"
            ),
        ]

    def __str__(self):
        return f"Wallet of {self.team}"

    def get_additional_data(self):
        return {"team_id": self.team_id}  # the team of its audit entries (django-auditlog)


class Transaction(models.Model):
    """One ledger movement. Append-only: never updated or deleted (enforced by the model and,
    on PostgreSQL, by a trigger)."""

    class Type(models.TextChoices):
        CREDIT = "credit", _("Credit")
        DEBIT = "debit", _("Debit")

    class ReferenceType(models.TextChoices):
        BOOKING = "booking", _("Booking")
        RECHARGE = "recharge", _("Recharge")
        REFUND = "refund", _("Refund")
        BOOKING_SERVICES = "booking_services", _("Booking extras")
        BOOKING_CHANGE = "booking_change", _("Booking change")
        # A recharge refunded or charged back after it was credited (its Reversal, rvs_…), and
        # the credit back of a chargeback reversed in the agency's favour.
        REVERSAL = "reversal", _("Reversal of a recharge")
        # A credit's part that paid the wallet's debt (reference: that credit's txn_…).
        DEBT_PAYMENT = "debt_payment", _("Debt payment")
        WITHDRAWAL = "withdrawal", _("Withdrawal")

    id = PrefixedIdField(prefix="txn")
    team = models.ForeignKey(
        "agencies.Team", on_delete=models.PROTECT, related_name="+", verbose_name=_("team")
    )
    live_mode = models.BooleanField(_("live mode"))
    type = models.CharField(_("type"), max_length=6, choices=Type.choices)
    amount = models.DecimalField(_("amount"), max_digits=14, decimal_places=2)
    currency = models.CharField(_("currency"), max_length=3, default="BRL")
    description = models.CharField(_("description"), max_length=255)
    reference_type = models.CharField(
        _("reference type"), max_length=20, choices=ReferenceType.choices
    )
    reference_id = models.CharField(_("reference"), max_length=40)
    balance_after = models.DecimalField(_("balance after"), max_digits=14, decimal_places=2)
    sequence = models.PositiveBigIntegerField(
        _("sequence"),
        null=True,
        blank=True,
        help_text=_("Position in the live wallet's chain of movements."),
    )
    payment_method = models.CharField(
        _("payment method"),
        max_length=6,
        choices=PaymentMethod.choices,
        blank=True,
        help_text=_("Recharge credits only."),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("transaction")
        verbose_name_plural = _("transactions")
        ordering = ["-created_at", "-id"]
        constraints = [
            # The same reference is never debited, credited or refunded twice.
            models.UniqueConstraint(
                fields=["team", "live_mode", "type", "reference_type", "reference_id"],
                name="transaction_once_per_reference",
            ),
            models.UniqueConstraint(
                fields=["team", "sequence"],
                condition=models.Q(live_mode=True),
                name="transaction_sequence_unique",
            ),
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="transaction_positive"),
            models.CheckConstraint(
                condition=models.Q(balance_after__gte=0), name="transaction_balance_after_positive"
            ),
        ]
        indexes = [models.Index(fields=["team", "live_mode", "-created_at"])]

    def __str__(self):
        return f"{self.type} {self.amount} {self.currency} ({self.id})"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise RuntimeError("Ledger transactions are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise RuntimeError("Ledger transactions are append-only")


class Recharge(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        COMPLETED = "completed", _("Completed")
        EXPIRED = "expired", _("Expired")
        FAILED = "failed", _("Failed")
        CANCELLED = "cancelled", _("Cancelled")

    id = PrefixedIdField(prefix="rch")
    team = models.ForeignKey(
        "agencies.Team",
        on_delete=models.PROTECT,
        related_name="recharges",
        verbose_name=_("team"),
    )
    live_mode = models.BooleanField(_("live mode"))
    amount = models.DecimalField(_("amount"), max_digits=14, decimal_places=2)
    currency = models.CharField(_("currency"), max_length=3, default="BRL")
    payment_method = models.CharField(
        _("payment method"), max_length=6, choices=PaymentMethod.choices
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    provider = models.CharField(_("provider"), max_length=20)
    provider_charge_id = models.CharField(
        _("provider charge id"), max_length=100, blank=True, db_index=True
    )
    # Payment instructions.
    pix_copy_paste = models.TextField(_("PIX copy and paste"), blank=True)
    boleto_barcode = models.CharField(_("boleto barcode"), max_length=44, blank=True)
    boleto_linha_digitavel = models.CharField(_("linha digitável"), max_length=54, blank=True)
    boleto_due_date = models.DateField(_("boleto due date"), null=True, blank=True)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    # Outcome.
    paid_at = models.DateTimeField(_("paid at"), null=True, blank=True)
    paid_amount = models.DecimalField(
        _("amount paid"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    transaction = models.OneToOneField(
        Transaction,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="recharge",
        verbose_name=_("transaction"),
    )
    failure_reason = models.CharField(_("failure reason"), max_length=255, blank=True)
    # Who paid, as the provider reports it when the payment is read back (never from a
    # notification's body): the PIX payer's account holder and the PIX end-to-end id.
    payer_name = models.CharField(_("payer"), max_length=200, blank=True)
    payer_tax_id = models.CharField(
        _("payer's CPF or CNPJ"),
        max_length=30,
        blank=True,
        help_text=_("As the provider reports it (it may mask some digits)."),
    )
    pix_end_to_end_id = models.CharField(_("PIX end-to-end id"), max_length=35, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("recharge")
        verbose_name_plural = _("recharges")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["team", "live_mode", "created_at"]),
            models.Index(fields=["status", "expires_at"]),
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="recharge_positive"),
            models.CheckConstraint(
                condition=~models.Q(status="completed") | models.Q(transaction__isnull=False),
                name="completed_recharge_has_transaction",
            ),
        ]

    def __str__(self):
        # As people read it (its page's title, audit entries, messages): "Recarga PIX de
        # R$ 1.234,56 · Concluída".
        return _("%(method)s recharge of %(amount)s · %(status)s") % {
            "method": self.get_payment_method_display(),
            "amount": money_display(self.amount),
            "status": self.get_status_display(),
        }

    def get_additional_data(self):
        return {"team_id": self.team_id}  # the team of its audit entries (django-auditlog)


class ProviderNotification(models.Model):
    """An inbound payment notification, kept once per provider event id: a notification the
    provider sends again is recognised and changes nothing.

    A notification is only a claim: the payment is read back from the provider first, and the
    row records what the provider said and what we did. A rejected one credited nothing; support
    is alerted by e-mail once (`alert_sent_at`, stamped by the task that sends it)."""

    class State(models.TextChoices):
        PAID = "paid", _("Paid: recharge credited")
        FAILED = "failed", _("Failed: recharge marked failed")
        IGNORED = "ignored", _("Ignored: nothing to do")
        REJECTED = "rejected", _("Rejected: not credited, support alerted")
        REVERSED = "reversed", _("Reversed: wallet debited, support alerted")
        REINSTATED = "reinstated", _("Chargeback reversed: wallet credited back")
        TRANSFER = "transfer", _("Transfer read back: withdrawal updated")

    class Reason(models.TextChoices):
        PAYMENT_NOT_FOUND = "payment_not_found", _("The provider does not know this payment")
        PAYMENT_MISMATCH = "payment_mismatch", _("The provider answered for another payment")
        UNKNOWN_PAYMENT = "unknown_payment", _("No recharge has this payment id")
        FOREIGN_REFERENCE = "foreign_reference", _("The payment is for another reference")
        NOT_RECEIVED = "not_received", _("The provider does not say the payment was received")
        AMOUNT_MISMATCH = "amount_mismatch", _("The provider's value is not the recharge amount")
        NOT_FAILED = "not_failed", _("The provider does not confirm the failure")
        REVERSED_AFTER_CREDIT = (
            "reversed_after_credit",
            _("Refunded or charged back after the wallet was credited"),
        )
        REVERSAL_MISMATCH = (
            "reversal_mismatch",
            _("The provider now reports less reversed than was taken, and no chargeback to undo"),
        )
        TRANSFER_NOT_FOUND = "transfer_not_found", _("The provider does not know this transfer")
        UNKNOWN_TRANSFER = "unknown_transfer", _("No withdrawal has this transfer")

    provider = models.CharField(_("provider"), max_length=20)
    event_id = models.CharField(_("event id"), max_length=100)
    event_type = models.CharField(_("event type"), max_length=60)
    payment_id = models.CharField(
        _("payment id"),
        max_length=100,
        blank=True,
        db_index=True,
        help_text=_("The payment (or, for transfer events, the transfer) the notification names."),
    )
    recharge = models.ForeignKey(
        Recharge, null=True, on_delete=models.PROTECT, verbose_name=_("recharge")
    )
    withdrawal = models.ForeignKey(
        "Withdrawal",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        verbose_name=_("withdrawal"),
        help_text=_("Transfer events: the withdrawal whose transfer it names."),
    )
    payload = models.JSONField(_("body"))
    received_at = models.DateTimeField(_("received at"), auto_now_add=True)
    # The outcome, decided on what the provider said when asked.
    state = models.CharField(_("outcome"), max_length=10, choices=State.choices)
    reason = models.CharField(_("reason"), max_length=30, choices=Reason.choices, blank=True)
    detail = models.CharField(_("detail"), max_length=255, blank=True)
    provider_status = models.CharField(
        _("provider status"),
        max_length=40,
        blank=True,
        help_text=_("The payment's status read back from the provider."),
    )
    provider_value = models.CharField(
        _("provider value"),
        max_length=40,
        blank=True,
        help_text=_("The payment's value read back, as written."),
    )
    provider_reference = models.CharField(
        _("provider reference"),
        max_length=100,
        blank=True,
        help_text=_("The payment's external reference read back."),
    )
    # Support alert of a rejected notification: sent once (see wallet/emails.py).
    alert_sent_at = models.DateTimeField(_("support alerted at"), null=True, blank=True)
    alert_sent_to = models.CharField(_("support alerted"), max_length=500, blank=True)

    class Meta:
        verbose_name = _("payment notification")
        verbose_name_plural = _("payment notifications")
        ordering = ["-received_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["provider", "event_id"], name="provider_notification_once"
            ),
            # A rejection always says why; nothing else carries a reason.
            models.CheckConstraint(
                condition=(models.Q(state="rejected") & ~models.Q(reason=""))
                | (~models.Q(state="rejected") & models.Q(reason="")),
                name="provider_notification_rejected_has_reason",
            ),
        ]
        indexes = [models.Index(fields=["state", "alert_sent_at"])]

    def __str__(self):
        return f"{self.provider} {self.event_type} {self.event_id}"


class Reversal(models.Model):
    """A recharge's money taken back after it was credited: refunded (in full or in part, a
    PIX returned through MED included) or charged back, as the provider reports when the
    payment is read back (docs/reversals.md). Written once per new reversed amount, under the
    recharge's row lock, with the wallet's movements in the same transaction:

    - the balance covers what it can: a `debit` (`reference_type` `reversal`, reference this
      id) of `debited_amount`;
    - the rest is `debt_created`, added to the wallet's `debt`; `debt_outstanding` is what of it
      the wallet still owes (credits pay it, oldest reversal first);
    - a chargeback later decided in the agency's favour is `cancelled`: what it still owed is
      forgiven and what it took (`amount - debt_outstanding` then) is credited back once
      (`credit_transaction`, `reference_type` `reversal`).

    `amount == debited_amount + debt_created` always."""

    class Reason(models.TextChoices):
        REFUND = "refund", _("Refund")
        CHARGEBACK = "chargeback", _("Chargeback")

    class Status(models.TextChoices):
        APPLIED = "applied", _("Applied")
        CANCELLED = "cancelled", _("Cancelled: credited back")

    id = PrefixedIdField(prefix="rvs")
    team = models.ForeignKey(
        "agencies.Team", on_delete=models.PROTECT, related_name="+", verbose_name=_("team")
    )
    live_mode = models.BooleanField(_("live mode"))
    recharge = models.ForeignKey(
        Recharge, on_delete=models.PROTECT, related_name="reversals", verbose_name=_("recharge")
    )
    # The recharge's 1st, 2nd… reversal: several partial refunds of one recharge are several
    # rows, each for what the provider's refunds add up to beyond the ones before.
    number = models.PositiveSmallIntegerField(_("number"))
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.APPLIED
    )
    amount = models.DecimalField(_("amount reversed"), max_digits=14, decimal_places=2)
    debited_amount = models.DecimalField(
        _("debited from the balance"), max_digits=14, decimal_places=2
    )
    debt_created = models.DecimalField(_("debt created"), max_digits=14, decimal_places=2)
    debt_outstanding = models.DecimalField(_("debt outstanding"), max_digits=14, decimal_places=2)
    transaction = models.OneToOneField(
        Transaction,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reversal",
        verbose_name=_("debit"),
    )
    credit_transaction = models.OneToOneField(
        Transaction,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cancelled_reversal",
        verbose_name=_("credit back"),
    )
    # What the provider said when the payment was read back.
    provider_status = models.CharField(_("provider status"), max_length=40, blank=True)
    detail = models.CharField(_("detail"), max_length=255, blank=True)
    event_type = models.CharField(
        _("event"),
        max_length=60,
        blank=True,
        help_text=_("The provider's notification that revealed it (empty: support's check)."),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)
    # Support alert: sent once (see wallet/emails.py).
    alert_sent_at = models.DateTimeField(_("support alerted at"), null=True, blank=True)
    alert_sent_to = models.CharField(_("support alerted"), max_length=500, blank=True)

    class Meta:
        verbose_name = _("reversal")
        verbose_name_plural = _("reversals")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["recharge", "number"], name="reversal_number_once"),
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="reversal_positive"),
            models.CheckConstraint(
                condition=models.Q(amount=models.F("debited_amount") + models.F("debt_created")),
                name="reversal_debited_plus_debt",
            ),
            models.CheckConstraint(
                condition=models.Q(debited_amount__gte=0, debt_outstanding__gte=0)
                & models.Q(debt_outstanding__lte=models.F("debt_created")),
                name="reversal_debt_outstanding_bounds",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="cancelled") | models.Q(debt_outstanding=0),
                name="reversal_cancelled_owes_nothing",
            ),
        ]
        indexes = [models.Index(fields=["team", "live_mode", "-created_at"])]

    def __str__(self):
        return f"{self.id} {self.amount} {self.reason} of {self.recharge_id}"


class LedgerCheck(models.Model):
    """One run of the ledger check (`wallet.ledger_check`), periodic from beat: when it ran,
    whether every wallet agreed with its ledger, and what it found. Support is alerted once per
    set of problems (`alert_sent_at`, stamped by the task that sends it); the time of the last
    clean run is the metric an operator watches (docs/operations.md)."""

    checked_at = models.DateTimeField(_("checked at"), db_index=True)
    consistent = models.BooleanField(_("consistent"))
    wallets = models.PositiveIntegerField(_("wallets"))
    problems = models.TextField(_("problems"), blank=True, help_text=_("One problem a line."))
    # The teams whose wallet disagrees: support is alerted when one appears that the previous
    # run did not name (a broken wallet's figures change with every movement; its team does not).
    teams = models.JSONField(_("teams"), default=list, blank=True)
    alert_sent_at = models.DateTimeField(_("support alerted at"), null=True, blank=True)
    alert_sent_to = models.CharField(_("support alerted"), max_length=500, blank=True)

    class Meta:
        verbose_name = _("ledger check")
        verbose_name_plural = _("ledger checks")
        ordering = ["-checked_at"]

    def __str__(self):
        return f"{self.checked_at:%Y-%m-%d %H:%M} {'consistent' if self.consistent else 'problems'}"


class PixKeyType(models.TextChoices):
    CPF = "cpf", "CPF"
    CNPJ = "cnpj", "CNPJ"
    EMAIL = "email", _("E-mail")
    PHONE = "phone", _("Phone")
    EVP = "evp", _("Random key (EVP)")


class PayoutKey(models.Model):
    """The PIX key of the team's own bank account, where its withdrawals are sent. Registered in
    the panel (confirmed, audited) once the team has its CNPJ or CPF; a withdrawal keeps a copy
    of the key it was sent to. Whoever holds the key, as the payment provider reports it, must
    have the team's CNPJ or CPF, or the transfer is refused (docs/withdrawals.md)."""

    team = models.OneToOneField(
        "agencies.Team",
        on_delete=models.PROTECT,
        related_name="payout_key",
        verbose_name=_("team"),
    )
    key_type = models.CharField(_("key type"), max_length=5, choices=PixKeyType.choices)
    key = models.CharField(
        _("PIX key"),
        max_length=77,
        help_text=_("CPF or CNPJ in digits, e-mail, phone as +55 and its digits, or random key."),
    )
    registered_at = models.DateTimeField(_("registered at"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("payout PIX key")
        verbose_name_plural = _("payout PIX keys")
        ordering = ["team__name"]

    def __str__(self):
        return f"{self.get_key_type_display()} {self.key}"

    def get_additional_data(self):
        return {"team_id": self.team_id}  # the team of its audit entries (django-auditlog)


class Withdrawal(models.Model):
    """Money sent from the team's wallet to its own bank account (a PIX transfer to its payout
    key). Created pending with the wallet debited in the same transaction; then the provider's
    transfer decides: completed, or failed/cancelled, which credits the amount back once
    (wallet.services.withdrawals, docs/withdrawals.md)."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("withdrawal", "Pending")
        COMPLETED = "completed", pgettext_lazy("withdrawal", "Completed")
        FAILED = "failed", pgettext_lazy("withdrawal", "Failed")
        CANCELLED = "cancelled", pgettext_lazy("withdrawal", "Cancelled")

    FINAL_STATUSES = (Status.COMPLETED, Status.FAILED, Status.CANCELLED)

    class FailureCode(models.TextChoices):
        HOLDER_MISMATCH = "holder_mismatch", _("The PIX key's holder is not the team")
        REFUSED = "refused", _("The payment provider refused the transfer")
        TRANSFER_FAILED = "transfer_failed", _("The transfer failed")
        TRANSFER_CANCELLED = "transfer_cancelled", _("The transfer was cancelled")

    id = PrefixedIdField(prefix="wdr")
    team = models.ForeignKey(
        "agencies.Team",
        on_delete=models.PROTECT,
        related_name="withdrawals",
        verbose_name=_("team"),
    )
    live_mode = models.BooleanField(_("live mode"))
    amount = models.DecimalField(_("amount"), max_digits=14, decimal_places=2)
    currency = models.CharField(_("currency"), max_length=3, default="BRL")
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    # Where it is sent: the team's payout key when it was requested.
    pix_key_type = models.CharField(_("key type"), max_length=5, choices=PixKeyType.choices)
    pix_key = models.CharField(_("PIX key"), max_length=77)
    # The provider's transfer.
    provider = models.CharField(_("provider"), max_length=20)
    provider_transfer_id = models.CharField(
        _("provider transfer id"), max_length=100, blank=True, db_index=True
    )
    provider_status = models.CharField(
        _("provider status"),
        max_length=40,
        blank=True,
        help_text=_("The transfer's status as the provider last reported it."),
    )
    holder_name = models.CharField(_("key holder"), max_length=200, blank=True)
    holder_tax_id = models.CharField(
        _("key holder's CNPJ or CPF"),
        max_length=30,
        blank=True,
        help_text=_("As the provider reports it (it may mask some digits)."),
    )
    # The transfer request: when it was last sent (a request whose answer was lost may have
    # created the transfer: it is looked up by our id before anything is sent again).
    submitted_at = models.DateTimeField(_("transfer requested at"), null=True, blank=True)
    submit_attempts = models.PositiveIntegerField(_("transfer requests"), default=0)
    checked_at = models.DateTimeField(_("last read back at"), null=True, blank=True)
    # Set when we asked the provider to cancel the transfer (its key holder is not the team).
    refused_at = models.DateTimeField(_("refused at"), null=True, blank=True)
    failure_code = models.CharField(
        _("failure"), max_length=20, choices=FailureCode.choices, blank=True
    )
    failure_reason = models.CharField(
        _("failure reason"),
        max_length=255,
        blank=True,
        help_text=_("In the payment provider's words, or ours."),
    )
    debit_transaction = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        related_name="withdrawal_debited",
        verbose_name=_("debit"),
    )
    refund_transaction = models.OneToOneField(
        Transaction,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="withdrawal_refunded",
        verbose_name=_("credit back"),
    )
    completed_at = models.DateTimeField(_("completed at"), null=True, blank=True)
    failed_at = models.DateTimeField(_("failed at"), null=True, blank=True)
    email_sent_at = models.DateTimeField(_("e-mail sent at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("withdrawal")
        verbose_name_plural = _("withdrawals")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["team", "live_mode", "created_at"]),
            models.Index(fields=["status", "created_at"]),
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="withdrawal_positive"),
            # Failed or cancelled: credited back; pending or completed: not.
            models.CheckConstraint(
                condition=(
                    models.Q(status__in=["failed", "cancelled"])
                    & models.Q(refund_transaction__isnull=False)
                )
                | (
                    models.Q(status__in=["pending", "completed"])
                    & models.Q(refund_transaction__isnull=True)
                ),
                name="withdrawal_credited_back_iff_failed",
            ),
        ]

    def __str__(self):
        return f"{self.id} {self.amount} {self.status}"

    @property
    def is_final(self) -> bool:
        return self.status in self.FINAL_STATUSES

    def get_additional_data(self):
        return {"team_id": self.team_id}  # the team of its audit entries (django-auditlog)
