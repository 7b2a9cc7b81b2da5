from datetime import timedelta
from decimal import Decimal

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory

from agencies.tests.factories import TeamFactory
from wallet.models import (
    LedgerCheck,
    PayoutKey,
    ProviderNotification,
    Recharge,
    Reversal,
    Transaction,
    Wallet,
    Withdrawal,
)
from wallet.providers import ProviderPayment
from wallet.services import (
    payout_key_register,
    recharge_complete,
    recharge_create,
    recharge_reversals_reconcile,
    wallet_credit,
    withdrawal_create,
)

TEAM_CNPJ = "11.222.333/0001-81"


class WalletFactory(DjangoModelFactory):
    """A team's live wallet: the one the wallet app opened with the team (wallet/receivers.py);
    money arrives through `fund` or `TransactionFactory`."""

    class Meta:
        model = Wallet

    team = factory.SubFactory(TeamFactory)

    @classmethod
    def _create(cls, model_class, *, team, **fields):
        assert not fields, "a wallet's balance moves only through the ledger"
        return Wallet.objects.get(team=team)


class TransactionFactory(DjangoModelFactory):
    """A credit recorded through the ledger (wallet_credit), as a completed recharge does: the
    ledger is append-only, so rows are never written around it."""

    class Meta:
        model = Transaction

    team = factory.LazyFunction(lambda: WalletFactory().team)
    live_mode = True
    amount = Decimal("100.00")
    reference_type = Transaction.ReferenceType.RECHARGE
    reference_id = factory.Sequence(lambda n: f"rch_factory{n:05d}")
    description = "Recharge"
    payment_method = "pix"

    @classmethod
    def _create(cls, model_class, **fields):
        return wallet_credit(**fields)


class RechargeFactory(DjangoModelFactory):
    """A PIX recharge waiting for its payment (the sandbox provider's charge)."""

    class Meta:
        model = Recharge

    team = factory.SubFactory(TeamFactory)
    live_mode = False
    amount = Decimal("250.00")
    payment_method = "pix"
    provider = "sandbox"
    provider_charge_id = factory.Sequence(lambda n: f"sbx_{n:05d}")
    pix_copy_paste = "00020126580014br.gov.bcb.pix"
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(hours=24))


class ProviderNotificationFactory(DjangoModelFactory):
    """A payment provider's notification that was read back and needed nothing."""

    class Meta:
        model = ProviderNotification

    provider = "asaas"
    event_id = factory.Sequence(lambda n: f"evt_factory{n:05d}")
    event_type = "PAYMENT_CREATED"
    payment_id = factory.Sequence(lambda n: f"pay_factory{n:05d}")
    payload = factory.LazyAttribute(
        lambda n: {"id": n.event_id, "event": n.event_type, "payment": {"id": n.payment_id}}
    )
    state = ProviderNotification.State.IGNORED


class LedgerCheckFactory(DjangoModelFactory):
    """A run of the periodic ledger check that found every wallet consistent."""

    class Meta:
        model = LedgerCheck

    checked_at = factory.LazyFunction(timezone.now)
    consistent = True
    wallets = 1


class ReversalFactory(DjangoModelFactory):
    """A live recharge credited, then refunded whole by its provider (read back), through the
    reversal service: the wallet still had the money, so it is debited and owes nothing."""

    class Meta:
        model = Reversal

    team = factory.SubFactory(TeamFactory)
    amount = Decimal("300.00")

    @classmethod
    def _create(cls, model_class, *, team, amount):
        recharge = recharge_complete(
            recharge=recharge_create(team=team, live_mode=True, amount=amount, payment_method="pix")
        )
        refunded = ProviderPayment(
            id=recharge.provider_charge_id,
            status="REFUNDED",
            state="reversed",
            value=recharge.amount,
            external_reference=recharge.id,
            refunded=recharge.amount,
        )
        reversal = recharge_reversals_reconcile(recharge=recharge, payment=refunded).created
        assert reversal is not None
        return reversal


class PayoutKeyFactory(DjangoModelFactory):
    """The team's payout PIX key, its own CNPJ (registered as the panel does, after the team's
    CNPJ is set)."""

    class Meta:
        model = PayoutKey

    team = factory.SubFactory(TeamFactory, tax_id=TEAM_CNPJ)
    key_type = "cnpj"
    key = TEAM_CNPJ

    @classmethod
    def _create(cls, model_class, *, team, key_type, key):
        return payout_key_register(team=team, key_type=key_type, key=key)


class WithdrawalFactory(DjangoModelFactory):
    """A test-mode withdrawal as the API makes it: debited, and completed by the sandbox."""

    class Meta:
        model = Withdrawal

    team = factory.LazyFunction(lambda: PayoutKeyFactory().team)
    live_mode = False
    amount = Decimal("150.00")

    @classmethod
    def _create(cls, model_class, *, team, live_mode, amount):
        return withdrawal_create(team=team, live_mode=live_mode, amount=amount)
