"""Cancellations over the API on the sandbox (its cancellation scenarios, docs/sandbox.md): a
quote then its confirmation, settled on the confirmed refund; a voucher or airline credits
credit 0.00; a lost confirmation is settled once by the reconcile job; and, on PostgreSQL with
real threads, racing confirmations never credit a refund twice."""

import threading
from collections import Counter
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connections

from bookings.models import Booking, BookingCancellation
from bookings.services import (
    booking_cancellation_check,
    booking_cancellation_confirm,
    booking_cancellation_quote,
    bookings_outcomes_reconcile,
)
from bookings.tests.helpers import book, money, offers, passenger
from core.exceptions import ApplicationError
from tests.kit.factories import fund
from tests.kit.marks import needs_postgresql
from wallet.ledger_check import ledger_problems

BOOKINGS = "/api/v1/bookings"


@pytest.fixture
def client(live_client, team, settings):
    settings.FLIGHTS_LIVE_SANDBOX = True
    fund(team, "100000.00")
    return live_client


def ticketed(client, family_name: str) -> Booking:
    """A paid, ticketed booking of a refundable fare, its passenger named `family_name`."""
    offer = next(
        o
        for o in offers(client)
        if o["conditions"]["refund_before_departure"]["allowed"]
        and o["conditions"]["refund_before_departure"]["penalty_amount"]
    )
    response = book(
        client,
        offer,
        type="instant",
        people=[passenger(offer["passengers"][0]["id"], family_name=family_name)],
        payments=[
            {
                "type": "balance",
                "amount": offer["total_amount"],
                "currency": offer["total_currency"],
            }
        ],
    )
    assert response.status_code == 201, response.content
    booking = Booking.objects.get(pk=response.json()["id"])
    assert booking.status == "ticketed"
    return booking


def per_conditions(booking: Booking) -> Decimal:
    condition = booking.conditions["refund_before_departure"]
    return booking.total_amount - Decimal(condition["penalty_amount"])


def brl(booking: Booking, amount: Decimal) -> Decimal:
    from bookings.services.refunds import refund_in_brl

    return refund_in_brl(booking, amount)


@pytest.mark.django_db
def test_the_sandbox_quotes_from_the_fare_rules_and_confirms(client):
    booking = ticketed(client, "Souza")
    quoted = client.post(f"{BOOKINGS}/{booking.pk}/cancellations")
    assert quoted.status_code == 201, quoted.content
    data = quoted.json()["data"]
    assert data["refund_amount"] == f"{per_conditions(booking)}"
    assert data["wallet_credit_amount"] == f"{brl(booking, per_conditions(booking))}"
    confirmed = client.post(f"{BOOKINGS}/{booking.pk}/cancellations/{data['id']}/confirm")
    assert confirmed.status_code == 200, confirmed.content
    assert money(booking.pk)[1] == [brl(booking, per_conditions(booking))]
    assert ledger_problems() == []


@pytest.mark.django_db
def test_a_lower_refund_credits_the_lower_amount(client):
    booking = ticketed(client, "Refundlow")
    response = client.delete(f"{BOOKINGS}/{booking.pk}")
    assert response.status_code == 200, response.content
    airline = (per_conditions(booking) / 2).quantize(Decimal("0.01"))
    assert response.json()["data"]["refund"]["amount"] == f"{airline}"
    assert money(booking.pk)[1] == [brl(booking, airline)]
    assert ledger_problems() == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("family", "refund_to"), [("Refundvoucher", "voucher"), ("Refundcredits", "airline_credits")]
)
def test_a_refund_to_credits_credits_nothing(client, family, refund_to):
    booking = ticketed(client, family)
    response = client.delete(f"{BOOKINGS}/{booking.pk}")
    refund = response.json()["data"]["refund"]
    assert (refund["refund_to"], refund["wallet_credit_amount"]) == (refund_to, "0.00")
    assert sum(Decimal(c["credit_amount"]) for c in refund["airline_credits"]) == per_conditions(
        booking
    )
    assert money(booking.pk)[1] == []
    page = client.get(f"{BOOKINGS}/{booking.pk}/cancellations").json()["data"][0]
    assert page["airline_credits"] == refund["airline_credits"]
    assert ledger_problems() == []


@pytest.mark.django_db
@pytest.mark.parametrize("family", ["Refundvoucher", "Refundcredits"])
def test_a_fare_that_refunds_nothing_gets_no_airline_credit_of_zero(client, family):
    offer = next(
        o for o in offers(client) if not o["conditions"]["refund_before_departure"]["allowed"]
    )
    payment = {
        "type": "balance",
        "amount": offer["total_amount"],
        "currency": offer["total_currency"],
    }
    people = [passenger(offer["passengers"][0]["id"], family_name=family)]
    booked = book(client, offer, type="instant", people=people, payments=[payment])
    assert booked.status_code == 201, booked.content

    quote = client.post(f"{BOOKINGS}/{booked.json()['id']}/cancellations").json()["data"]

    assert (quote["refund_amount"], quote["wallet_credit_amount"]) == ("0.00", "0.00")
    assert quote["airline_credits"] == []


@pytest.mark.django_db
def test_a_lost_confirmation_is_settled_once_by_the_reconcile_job(client, settings):
    booking = ticketed(client, "Cancellost")
    quoted = booking_cancellation_quote(booking=booking)
    with pytest.raises(ApplicationError) as lost:
        booking_cancellation_confirm(booking=booking, cancellation_id=quoted.pk)
    assert lost.value.code == "cancellation_outcome_unknown"
    assert money(booking.pk)[1] == []
    assert BookingCancellation.objects.get().status == "unknown"

    bookings_outcomes_reconcile()  # the task runs at once in the tests (eager)

    assert BookingCancellation.objects.get().status == "confirmed"
    assert booking_cancellation_check(cancellation_id=quoted.pk) == "settled"
    assert money(booking.pk)[1] == [brl(booking, per_conditions(booking))]
    booking.refresh_from_db()
    assert booking.status == "cancelled"
    assert ledger_problems() == []


@pytest.mark.django_db(transaction=True)
@needs_postgresql("row locks and concurrent confirmations")
def test_racing_confirmations_credit_the_refund_once(client):
    booking = ticketed(client, "Souza")
    quoted = booking_cancellation_quote(booking=booking)
    threads_count = 6
    start, outcomes = threading.Barrier(threads_count), []

    def confirm():
        try:
            start.wait()
            try:
                confirmed = booking_cancellation_confirm(booking=booking, cancellation_id=quoted.pk)
                outcomes.append(confirmed.status)
            except ApplicationError as exc:
                outcomes.append(exc.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=confirm) for _ in range(threads_count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    counted = Counter(outcomes)
    assert counted["confirmed"] >= 1, counted
    assert set(counted) <= {"confirmed", "cancellation_in_progress"}, counted
    assert money(booking.pk)[1] == [brl(booking, per_conditions(booking))]
    assert ledger_problems() == []


# --- The panel, the booking page and the e-mail --------------------------------------------------


@pytest.mark.django_db
def test_the_panels_cancel_confirmation_shows_the_suppliers_quote(client, team):
    from django.urls import reverse

    from agencies.tests.factories import SupportUserFactory
    from tests.kit.panel import browser_for

    booking = ticketed(client, "Refundlow")
    airline = (per_conditions(booking) / 2).quantize(Decimal("0.01"))
    browser = browser_for(SupportUserFactory(), language="en")
    chosen = {"action": "cancel", "_selected_action": [booking.pk]}
    page = browser.post(reverse("admin:bookings_booking_changelist"), chosen).content.decode()
    credited = f"{brl(booking, airline):,.2f}"
    assert f"The wallet is refunded R$\N{NO-BREAK SPACE}{credited}" in page  # not the conditions
    shown = booking.cancellations.get()  # the page's quote, posted back with "yes"
    assert f'name="cancellation_quote" value="{booking.pk}:{shown.pk}"' in page
    posted = {**chosen, "post": "yes", "cancellation_quote": f"{booking.pk}:{shown.pk}"}
    browser.post(reverse("admin:bookings_booking_changelist"), posted)
    assert money(booking.pk)[1] == [brl(booking, airline)]
    assert list(booking.cancellations.values_list("pk", "status")) == [(shown.pk, "confirmed")]
    assert ledger_problems() == []


@pytest.mark.django_db
def test_the_panel_confirms_only_the_quote_it_showed(client, team):
    """A newer quote asked for meanwhile (over the API): "yes" on the older page confirms
    nothing, says why, and the booking stays as it was."""
    from django.urls import reverse

    from agencies.tests.factories import SupportUserFactory
    from tests.kit.panel import browser_for

    booking = ticketed(client, "Souza")
    browser = browser_for(SupportUserFactory(), language="en")
    url = reverse("admin:bookings_booking_changelist")
    chosen = {"action": "cancel", "_selected_action": [booking.pk]}
    browser.post(url, chosen)
    shown = booking.cancellations.get()
    assert client.post(f"{BOOKINGS}/{booking.pk}/cancellations").status_code == 201
    posted = {**chosen, "post": "yes", "cancellation_quote": f"{booking.pk}:{shown.pk}"}
    answer = browser.post(url, posted, follow=True).content.decode()
    assert "A newer cancellation quote exists for this booking; confirm that one" in answer
    booking.refresh_from_db()
    assert booking.status == "ticketed" and money(booking.pk)[1] == []
    assert not booking.cancellations.filter(status="confirmed").exists()


@pytest.mark.django_db
def test_the_booking_page_and_the_email_show_the_airline_credits(client, team, mailoutbox):
    from django.urls import reverse

    from agencies.tests.factories import SupportUserFactory
    from bookings.emails import booking_email_message
    from tests.kit.panel import browser_for

    booking = ticketed(client, "Refundvoucher")
    refund = client.delete(f"{BOOKINGS}/{booking.pk}").json()["data"]["refund"]
    [credit] = refund["airline_credits"]
    browser = browser_for(SupportUserFactory(), language="en")
    page = browser.get(reverse("admin:bookings_booking_change", args=[booking.pk])).content
    assert credit["credit_code"] in page.decode()
    assert "Cancellation at the supplier" in page.decode()
    booking.refresh_from_db()
    message = booking_email_message(
        booking=booking,
        kind="booking_cancelled",
        passengers=list(booking.passengers.all()),
        documents=list(booking.documents.all()),
        to=["ana@example.com"],
    )
    body = message.body
    assert credit["credit_code"] in body
    assert "crédito com a companhia" in body or "credit with the airline" in body


@pytest.mark.django_db
def test_supports_check_now_settles_a_lost_confirmation(client):
    from bookings.services import booking_check_with_supplier

    booking = ticketed(client, "Cancellost")
    quoted = booking_cancellation_quote(booking=booking)
    with pytest.raises(ApplicationError):
        booking_cancellation_confirm(booking=booking, cancellation_id=quoted.pk)

    assert booking_check_with_supplier(booking=booking) == "confirmed"

    assert money(booking.pk)[1] == [brl(booking, per_conditions(booking))]
    assert ledger_problems() == []


@pytest.mark.django_db
def test_a_lost_confirmation_needs_supports_attention_until_it_is_settled(client):
    """Listed in support's "needs attention" (the bookings' filter and the home page's list)
    from the moment the answer is lost until the reconcile job settles it."""
    from django.urls import reverse

    from agencies.tests.factories import SupportUserFactory
    from bookings.selectors import bookings_needing_attention
    from dashboard.display import support_home
    from tests.kit.panel import browser_for

    booking = ticketed(client, "Cancellost")
    quoted = booking_cancellation_quote(booking=booking)
    with pytest.raises(ApplicationError):
        booking_cancellation_confirm(booking=booking, cancellation_id=quoted.pk)
    quoted.refresh_from_db()
    assert quoted.status == "unknown"
    needing = reverse("admin:bookings_booking_changelist") + "?attention=yes&mode=live"
    support = browser_for(SupportUserFactory(), language="en")

    def attention() -> tuple[list, list, list]:
        lists = {item["key"]: item for item in support_home(live_mode=True)["attention"]}
        listed = support.get(needing).context["cl"].queryset
        return (
            [r["label"] for r in lists["unknown_cancellations"]["rows"]],
            list(bookings_needing_attention().values_list("pk", flat=True)),
            [b.pk for b in listed],
        )

    assert attention() == ([booking.booking_reference], [booking.pk], [booking.pk])
    home = support.get(reverse("admin:index")).content.decode()
    assert 'id="attention-unknown_cancellations"' in home and booking.booking_reference in home

    assert booking_cancellation_check(cancellation_id=quoted.pk) == "confirmed"
    assert attention() == ([], [], [])
    assert money(booking.pk)[1] == [brl(booking, per_conditions(booking))]
    assert ledger_problems() == []


@pytest.mark.django_db
def test_the_sandbox_reads_a_cancellation_back(client):
    """What the reconcile job reads first: the quote as quoted, then as confirmed (the
    confirmed refund, which may differ)."""
    from flights.suppliers import supplier_for_booking

    booking = ticketed(client, "Refunddrop")
    quoted = booking_cancellation_quote(booking=booking)
    supplier = supplier_for_booking(booking)
    before = supplier.get_cancellation(quoted.supplier_cancellation_id)
    assert before.confirmed_at is None and before.refund_amount == per_conditions(booking)

    confirmed = booking_cancellation_confirm(booking=booking, cancellation_id=quoted.pk)

    after = supplier.get_cancellation(quoted.supplier_cancellation_id)
    assert after.confirmed_at is not None
    assert (
        after.refund_amount
        == confirmed.refund_amount
        == (per_conditions(booking) / 2).quantize(Decimal("0.01"))
    )
    with pytest.raises(ApplicationError):
        supplier.get_cancellation("not-a-sandbox-quote")


def _panel_cancel(booking, *, language="pt-br", before_yes=None):
    """Support's two POSTs of the cancel action, the quote shown posted back with "yes"; the
    messages the panel answers with."""
    from django.urls import reverse

    from agencies.tests.factories import SupportUserFactory
    from tests.kit.panel import browser_for

    browser = browser_for(SupportUserFactory(), language=language)
    url = reverse("admin:bookings_booking_changelist")
    chosen = {"action": "cancel", "_selected_action": [booking.pk]}
    assert browser.post(url, chosen).status_code == 200
    shown = booking.cancellations.get(superseded=False)
    if before_yes:
        before_yes()
    posted = {**chosen, "post": "yes", "cancellation_quote": f"{booking.pk}:{shown.pk}"}
    answer = browser.post(url, posted, follow=True)
    return shown, [str(m) for m in answer.context["messages"]]


@pytest.mark.django_db
def test_the_panel_says_when_the_airline_confirms_less_than_it_quoted(client):
    booking = ticketed(client, "Refunddrop")  # quoted per the conditions, confirmed at half

    shown, said = _panel_cancel(booking)

    from django.utils import translation

    from core.money import money_display

    confirmed = (per_conditions(booking) / 2).quantize(Decimal("0.01"))
    assert money(booking.pk)[1] == [brl(booking, confirmed)]
    with translation.override("pt-br"):
        warning = (
            f"{booking.booking_reference}: a companhia aérea confirmou um reembolso diferente "
            f"da cotação; a carteira recebeu {money_display(brl(booking, confirmed))} "
            f"(cotado: {money_display(shown.wallet_credit_amount)})."
        )
    assert warning in said, said
    assert ledger_problems() == []


@pytest.mark.django_db
def test_a_quote_that_expired_on_the_confirmation_page_is_refused_in_portuguese(client):
    import time_machine
    from django.utils import timezone

    booking = ticketed(client, "Quoteexpires")  # the quote lives 5 seconds

    def later():
        traveller.start()

    traveller = time_machine.travel(timezone.now() + timedelta(seconds=30), tick=False)
    try:
        _, said = _panel_cancel(booking, before_yes=later)
    finally:
        traveller.stop()

    assert any("Esta cotação de cancelamento expirou; peça uma nova" in m for m in said), said
    booking.refresh_from_db()
    assert booking.status == "ticketed" and money(booking.pk)[1] == []
