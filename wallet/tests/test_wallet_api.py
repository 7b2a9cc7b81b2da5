from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from tests.kit.factories import fund
from wallet.models import Transaction
from wallet.services import wallet_debit

pytestmark = pytest.mark.django_db

BALANCE = "/api/v1/wallet/balance"
TRANSACTIONS = "/api/v1/wallet/transactions"


def fund_at(moment: datetime, team, amount: str, reference_id: str) -> Transaction:
    with time_machine.travel(moment, tick=False):
        return fund(team, amount, reference_id=reference_id)


def test_live_balance_has_every_field_of_the_spec(live_client, team):
    txn = fund(team, "1234.50")
    body = live_client.get(BALANCE).json()
    assert body["success"] is True and "_meta" not in body
    assert body["data"] == {
        "balance": "1234.50",
        "currency": "BRL",
        "available_credit": "1234.50",
        "pending_amount": "0.00",
        "last_transaction_at": txn.created_at.isoformat(timespec="milliseconds").replace(
            "+00:00", "Z"
        ),
        "debt_amount": "0.00",
        "restricted": False,
    }


def test_new_wallet_has_no_last_transaction(live_client):
    data = live_client.get(BALANCE).json()["data"]
    assert data["balance"] == "0.00" and data["last_transaction_at"] is None


def test_test_balance_is_always_5000(test_client, team):
    fund(team, "100.00")  # live money is invisible to a test key
    wallet_debit(
        team=team,
        live_mode=False,
        amount=Decimal("1200.00"),
        reference_type="booking",
        reference_id="ord_t",
        description="Test booking",
    )
    body = test_client.get(BALANCE).json()
    assert body["data"]["balance"] == "5000.00"
    assert body["data"]["available_credit"] == "5000.00"
    assert body["data"]["last_transaction_at"] is not None
    assert body["_meta"]["test_mode"] is True


def test_transactions_newest_first_with_pagination_and_summary(live_client, team):
    fund(team, "1000.00")
    for n in range(5):
        wallet_debit(
            team=team,
            live_mode=True,
            amount=Decimal("10.00"),
            reference_type="booking",
            reference_id=f"ord_{n}",
            description=f"B{n}",
        )
    body = live_client.get(TRANSACTIONS, {"limit": 2}).json()
    data = body["data"]
    assert [t["reference_id"] for t in data["transactions"]] == ["ord_4", "ord_3"]
    assert data["pagination"] == {
        "page": 1,
        "limit": 2,
        "total": 6,
        "pages": 3,
        "has_more": True,
    }
    # The summary covers the whole filtered set, not the page.
    assert data["summary"]["total_credits"] == "1000.00"
    assert data["summary"]["total_debits"] == "50.00"
    first = data["transactions"][0]
    assert set(first) == {
        "id",
        "type",
        "amount",
        "currency",
        "description",
        "reference_type",
        "reference_id",
        "balance_after",
        "created_at",
    }
    assert first["balance_after"] == "950.00" and first["amount"] == "10.00"
    credit = live_client.get(TRANSACTIONS, {"type": "credit"}).json()["data"]
    assert [t["payment_method"] for t in credit["transactions"]] == ["pix"]
    assert credit["summary"]["total_debits"] == "0.00"


def test_date_filters_are_sao_paulo_calendar_days(live_client, team):
    # 02:30 UTC on 10 March is still 9 March in São Paulo (UTC-3).
    late_on_9th = fund_at(datetime(2026, 3, 10, 2, 30, tzinfo=UTC), team, "100.00", "rch_a")
    on_10th = fund_at(datetime(2026, 3, 10, 12, 0, tzinfo=UTC), team, "200.00", "rch_b")
    only_9th = live_client.get(
        TRANSACTIONS, {"start_date": "2026-03-09", "end_date": "2026-03-09"}
    ).json()["data"]
    assert [t["id"] for t in only_9th["transactions"]] == [late_on_9th.id]
    assert only_9th["summary"] == {
        "total_credits": "100.00",
        "total_debits": "0.00",
        "period_start": "2026-03-09",
        "period_end": "2026-03-09",
    }
    from_10th = live_client.get(TRANSACTIONS, {"start_date": "2026-03-10"}).json()["data"]
    assert [t["id"] for t in from_10th["transactions"]] == [on_10th.id]
    assert from_10th["summary"]["period_end"] == "2026-03-10"


def test_summary_period_of_an_empty_unfiltered_list_is_null(live_client):
    summary = live_client.get(TRANSACTIONS).json()["data"]["summary"]
    assert summary == {
        "total_credits": "0.00",
        "total_debits": "0.00",
        "period_start": None,
        "period_end": None,
    }


@pytest.mark.parametrize(
    "params",
    [
        {"type": "refund"},
        {"start_date": "2026-13-01"},
        {"end_date": "10/03/2026"},
        {"start_date": "2026-03-10", "end_date": "2026-03-09"},
        {"limit": "0"},
        {"page": "abc"},
    ],
)
def test_invalid_transaction_filters_are_400(live_client, params):
    response = live_client.get(TRANSACTIONS, params)
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "Invalid request parameters"


def test_transactions_are_scoped_to_team_and_mode(live_client, test_client, team, other_team):
    fund(other_team, "999.00")
    fund(team, "100.00", reference_id="rch_test", live_mode=False)
    assert live_client.get(TRANSACTIONS).json()["data"]["transactions"] == []
    test_rows = test_client.get(TRANSACTIONS).json()["data"]["transactions"]
    assert [t["balance_after"] for t in test_rows] == ["5000.00"]


def test_transactions_ignore_movements_of_a_later_page_date(live_client, team):
    fund(team, "100.00")
    tomorrow = (timezone.localdate() + timedelta(days=2)).isoformat()
    data = live_client.get(TRANSACTIONS, {"start_date": tomorrow}).json()["data"]
    assert data["transactions"] == [] and data["summary"]["period_start"] == tomorrow
