import threading
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction

from tests.kit.factories import fund
from tests.kit.marks import needs_postgresql
from wallet.ledger_check import ledger_problems
from wallet.models import Transaction, Wallet
from wallet.services import (
    DuplicateTransaction,
    InsufficientBalance,
    wallet_credit,
    wallet_debit,
)
from webhooks.models import Event

pytestmark = pytest.mark.django_db


def debit(team, amount, ref, live_mode=True):
    return wallet_debit(
        team=team,
        live_mode=live_mode,
        amount=Decimal(amount),
        reference_type="booking",
        reference_id=ref,
        description=f"Booking {ref}",
    )


def balance(team) -> Decimal:
    return Wallet.objects.get(team=team).balance


def test_credit_and_debit_move_the_balance_and_chain_balance_after(team):
    credit = fund(team, "1000.00")
    first = debit(team, "250.10", "ord_1")
    second = debit(team, "0.90", "ord_2")
    assert (credit.balance_after, first.balance_after, second.balance_after) == (
        Decimal("1000.00"),
        Decimal("749.90"),
        Decimal("749.00"),
    )
    assert [credit.sequence, first.sequence, second.sequence] == [1, 2, 3]
    wallet = Wallet.objects.get(team=team)
    assert wallet.balance == Decimal("749.00") and wallet.movement_count == 3
    assert wallet.last_transaction_at == second.created_at
    assert ledger_problems() == []


def test_events_carry_the_transaction(team):
    fund(team, "1000.00")
    txn = debit(team, "100.00", "ord_1")
    event = Event.objects.get(type="wallet.debit")
    assert event.data_object == {
        "id": txn.id,
        "type": "debit",
        "amount": "100.00",
        "currency": "BRL",
        "description": "Booking ord_1",
        "reference_type": "booking",
        "reference_id": "ord_1",
        "balance_after": "900.00",
        "created_at": txn.created_at.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
    }
    credit_event = Event.objects.get(type="wallet.credit")
    assert credit_event.data_object["payment_method"] == "pix"
    assert credit_event.live_mode is True


def test_debit_beyond_the_balance_is_refused_and_leaves_nothing(team):
    fund(team, "100.00")
    events_before = Event.objects.count()
    with pytest.raises(InsufficientBalance) as error:
        debit(team, "100.01", "ord_1")
    assert (error.value.status_code, error.value.message) == (422, "Insufficient balance")
    assert balance(team) == Decimal("100.00")
    assert not Transaction.objects.filter(type="debit").exists()
    assert Event.objects.count() == events_before


def test_debit_of_exactly_the_balance_reaches_zero(team):
    fund(team, "100.00")
    assert debit(team, "100.00", "ord_1").balance_after == Decimal("0.00")
    with pytest.raises(InsufficientBalance):
        debit(team, "0.01", "ord_2")


def test_the_same_reference_is_never_debited_twice(team):
    fund(team, "1000.00")
    debit(team, "100.00", "ord_1")
    with pytest.raises(DuplicateTransaction):
        debit(team, "100.00", "ord_1")
    assert balance(team) == Decimal("900.00")
    assert Transaction.objects.filter(reference_id="ord_1").count() == 1
    assert Event.objects.filter(type="wallet.debit").count() == 1


def test_the_same_booking_is_never_refunded_twice(team):
    fund(team, "1000.00")
    debit(team, "300.00", "ord_1")
    refund = {
        "team": team,
        "live_mode": True,
        "amount": Decimal("300.00"),
        "reference_type": "refund",
        "reference_id": "ord_1",
        "description": "Refund",
    }
    wallet_credit(**refund)
    with pytest.raises(DuplicateTransaction):
        wallet_credit(**refund)
    assert balance(team) == Decimal("1000.00")


def test_the_same_recharge_is_never_credited_twice(team):
    fund(team, "100.00", reference_id="rch_1")
    with pytest.raises(DuplicateTransaction):
        fund(team, "100.00", reference_id="rch_1")
    assert balance(team) == Decimal("100.00")


def test_amounts_are_positive(team):
    with pytest.raises(ValueError):
        debit(team, "0.00", "ord_1")
    with pytest.raises(ValueError):
        fund(team, "-5.00")


def test_amounts_are_quantized_half_up(team):
    assert fund(team, "100.005").amount == Decimal("100.01")


def test_test_mode_is_a_constant_5000_sandbox(team):
    fund(team, "200.00")  # live money, untouched by what follows
    test_debit = debit(team, "4999.99", "ord_t1", live_mode=False)
    test_credit = fund(team, "1000.00", reference_id="rch_t1", live_mode=False)
    assert test_debit.balance_after == test_credit.balance_after == Decimal("5000.00")
    assert test_debit.sequence is None and test_debit.live_mode is False
    assert balance(team) == Decimal("200.00")
    with pytest.raises(InsufficientBalance):
        debit(team, "5000.01", "ord_t2", live_mode=False)
    assert Event.objects.filter(type="wallet.debit", live_mode=False).count() == 1


def test_low_balance_event_when_a_movement_crosses_500(team):
    fund(team, "600.00")
    debit(team, "100.00", "ord_1")  # 500.00: not below
    assert not Event.objects.filter(type="wallet.low_balance").exists()
    debit(team, "0.01", "ord_2")  # 499.99: crossed
    debit(team, "10.00", "ord_3")  # already below: no second alert
    events = Event.objects.filter(type="wallet.low_balance")
    assert events.count() == 1
    assert events.get().data_object["balance"] == "499.99"
    assert events.get().previous_attributes == {"balance": "500.00"}


def test_no_low_balance_event_in_test_mode(team):
    debit(team, "4800.00", "ord_t", live_mode=False)
    assert not Event.objects.filter(type="wallet.low_balance").exists()


def test_ledger_rows_cannot_be_updated_or_deleted_through_the_model(team):
    txn = fund(team, "100.00")
    txn.description = "tampered"
    with pytest.raises(RuntimeError, match="append-only"):
        txn.save()
    with pytest.raises(RuntimeError, match="append-only"):
        txn.delete()


def test_the_database_refuses_a_negative_balance(team):
    with pytest.raises(IntegrityError), transaction.atomic():
        Wallet.objects.filter(team=team).update(balance=Decimal("-0.01"))


@needs_postgresql("the append-only trigger is PostgreSQL's")
def test_postgresql_trigger_refuses_update_and_delete(team):
    txn = fund(team, "100.00")
    for statement in (
        "UPDATE wallet_transaction SET amount = 1 WHERE id = %s",
        "DELETE FROM wallet_transaction WHERE id = %s",
    ):
        with (
            pytest.raises(Exception, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(statement, [txn.id])
    assert Transaction.objects.get(pk=txn.pk).amount == Decimal("100.00")


def test_check_ledger_passes_on_a_consistent_ledger(team, other_team):
    fund(team, "500.00")
    debit(team, "120.00", "ord_1")
    out = StringIO()
    call_command("check_ledger", stdout=out)
    assert "2 wallet(s) consistent" in out.getvalue()


def test_check_ledger_names_a_wallet_whose_balance_disagrees(team, other_team):
    fund(team, "500.00")
    Wallet.objects.filter(team=team).update(balance=Decimal("400.00"))  # bypass the ledger
    err = StringIO()
    with pytest.raises(CommandError, match="1 wallet"):
        call_command("check_ledger", stderr=err)
    assert team.id in err.getvalue() and other_team.id not in err.getvalue()


@needs_postgresql("row locks; SQLite serialises every writer")
@pytest.mark.django_db(transaction=True)
def test_concurrent_debits_never_overdraw_or_lose_an_update(team):
    fund(team, "1000.00")
    attempts, threads_count = 40, 8  # 40 × 50.00 = 2000.00 asked of 1000.00
    barrier = threading.Barrier(threads_count)
    outcomes = []

    def worker(worker_id):
        barrier.wait()
        for n in range(attempts // threads_count):
            try:
                debit(team, "50.00", f"ord_{worker_id}_{n}")
                outcomes.append("ok")
            except InsufficientBalance:
                outcomes.append("refused")
        connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(threads_count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count("ok") == 20 and outcomes.count("refused") == 20
    assert balance(team) == Decimal("0.00")
    debits = Transaction.objects.filter(team=team, type="debit")
    assert debits.count() == 20
    assert ledger_problems() == []
