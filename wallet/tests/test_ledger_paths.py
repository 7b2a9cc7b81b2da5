"""The ledger's two ways of writing a live movement write the same rows.

On PostgreSQL a live movement is ONE statement (`_write_live_in_one_statement`); elsewhere it is
the portable `_write`, with the webhooks app's `event_record`. Both get who receives a delivery
from the webhooks app's one subscription rule and the low-balance crossing from the one
balance-moving statement. These tests run the same movements through each path, on two teams with
the same endpoints, and compare everything written apart from ids and timestamps.
"""

import re
from decimal import Decimal

import pytest
from django.db import connection, models
from psycopg._queries import MAX_CACHED_STATEMENT_LENGTH, MAX_CACHED_STATEMENT_PARAMS

from core.timestamps import iso_utc
from tests.kit.factories import make_endpoint, make_team
from tests.kit.marks import needs_postgresql
from tests.kit.model_copies import with_field
from wallet.models import Transaction
from wallet.services import DuplicateTransaction, InsufficientBalance
from wallet.services.ledger import ledger_columns, one_statement_sql, wallet_move
from webhooks.models import Delivery, Event

pytestmark = [
    pytest.mark.django_db,
    needs_postgresql("the one-statement path exists only on PostgreSQL"),
]

WALLET_TYPES = ("wallet.credit", "wallet.debit", "wallet.low_balance")
# label: how the endpoint is registered. Only "all", "debit" and "low-balance" may get anything.
ENDPOINTS = {
    "all": {"events": WALLET_TYPES},
    "debit": {"events": ["wallet.debit"]},
    "low-balance": {"events": ["wallet.low_balance"]},
    "inactive": {"events": WALLET_TYPES, "active": False},
    "test-mode": {"events": WALLET_TYPES, "live_mode": False},
    "not-subscribed": {"events": ["booking.created", "wallet.recharge.completed"]},
}

# (type, amount, reference_id, the outcome), from an empty live wallet.
MOVEMENTS = [
    ("credit", "1000.00", "rch_1", None),  # 1000.00
    ("debit", "400.00", "ord_1", None),  # 600.00
    ("debit", "200.00", "ord_2", None),  # 400.00: crosses 500
    ("debit", "100.00", "ord_3", None),  # 300.00: already below, no second alert
    ("debit", "300.01", "ord_4", InsufficientBalance),  # refused, nothing written
    ("credit", "300.00", "rch_2", None),  # 600.00: a credit never alerts
    ("debit", "100.00", "ord_5", None),  # 500.00: at the threshold is not below it
    ("debit", "0.01", "ord_6", None),  # 499.99: crosses from exactly 500.00
    ("credit", "0.01", "rch_3", None),  # 500.00
    ("debit", "500.00", "ord_7", None),  # 0.00: crosses again
    ("credit", "5.00", "rch_3", DuplicateTransaction),  # the same recharge: nothing written
]


def run_movements(team, *, one_statement: bool) -> None:
    for type_, amount, reference_id, refusal in MOVEMENTS:
        kwargs = {
            "team": team,
            "live_mode": True,
            "type": type_,
            "amount": Decimal(amount),
            "reference_type": "booking" if type_ == "debit" else "recharge",
            "reference_id": reference_id,
            "description": f"Movement {reference_id}",
            "payment_method": "pix" if type_ == "credit" else "",
            "one_statement": one_statement,
        }
        if refusal:
            with pytest.raises(refusal):
                wallet_move(**kwargs)
        else:
            wallet_move(**kwargs)


def add_endpoints(team) -> None:
    for label, fields in ENDPOINTS.items():
        make_endpoint(team, f"https://hooks.example.com/{team.pk}/{label}", **fields)


def written(team) -> dict:
    """What the movements wrote for `team`, with ids and timestamps replaced by what they name."""
    ledger = list(
        Transaction.objects.filter(team=team)
        .order_by("sequence")
        .values("id", "type", "amount", "reference_id", "balance_after", "sequence", "created_at")
    )
    by_id = {row["id"]: row for row in ledger}
    events = []
    for event in Event.objects.filter(team=team, type__startswith="wallet.").order_by(
        "created_at", "type"
    ):
        data = dict(event.data_object)
        txn = by_id[data.get("id") or data["transaction_id"]]
        for field in ("id", "transaction_id"):
            if field in data:
                data[field] = txn["reference_id"]
        if "created_at" in data:
            assert data["created_at"] == iso_utc(txn["created_at"])
            data["created_at"] = "the transaction's"
        deliveries = sorted(
            (
                delivery.endpoint.url.rsplit("/", 1)[1],
                delivery.endpoint.team_id == team.pk,
                delivery.status,
                delivery.attempt_count,
                delivery.next_attempt_at == event.created_at,  # due at once
                delivery.leased_until,
                delivery.lease_id,
            )
            for delivery in event.deliveries.select_related("endpoint")
        )
        events.append(
            {
                "type": event.type,
                "live_mode": event.live_mode,
                "api_version": event.api_version,
                "data_object": data,
                "previous_attributes": event.previous_attributes,
                "deliveries": deliveries,
            }
        )
    for row in ledger:
        del row["id"], row["created_at"]
    return {"ledger": ledger, "events": events}


def test_both_paths_write_the_same_ledger_events_and_deliveries(team, other_team):
    plain, fast = team, other_team
    stranger = make_team("Gamma Viagens").team  # subscribed to everything, must get nothing
    for each in (plain, fast, stranger):
        add_endpoints(each)

    run_movements(plain, one_statement=False)
    run_movements(fast, one_statement=True)

    assert written(fast) == written(plain)
    # ... and what both wrote is right, not merely equal.
    events = written(plain)["events"]
    pending_due_now = ("pending", 0, True, None, "")
    summary = [
        (event["type"], [delivery[0] for delivery in event["deliveries"]]) for event in events
    ]
    movement_only = {"credit": ["all"], "debit": ["all", "debit"]}
    expected = []
    for type_, _, reference_id, refusal in MOVEMENTS:
        if refusal:
            continue
        expected.append((f"wallet.{type_}", movement_only[type_]))
        if reference_id in ("ord_2", "ord_6", "ord_7"):
            expected.append(("wallet.low_balance", ["all", "low-balance"]))
    assert summary == expected
    assert all(
        delivery[1:] == (True, *pending_due_now)
        for event in events
        for delivery in event["deliveries"]
    )
    low_balance = [event for event in events if event["type"] == "wallet.low_balance"]
    assert [(e["data_object"]["balance"], e["previous_attributes"]) for e in low_balance] == [
        ("400.00", {"balance": "600.00"}),
        ("499.99", {"balance": "500.00"}),
        ("0.00", {"balance": "500.00"}),
    ]
    assert low_balance[0]["data_object"] == {
        "object": "balance",
        "balance": "400.00",
        "currency": "BRL",
        "threshold": "500.00",
        "transaction_id": "ord_2",
    }
    assert [row["balance_after"] for row in written(plain)["ledger"]][-1] == Decimal("0.00")
    assert not Event.objects.filter(team=stranger, type__startswith="wallet.").exists()
    assert not Delivery.objects.filter(endpoint__team=stranger).exists()


# --- The ledger row's columns follow Transaction's fields -------------------------------------


def ledger_insert(sql: str) -> tuple[str, str]:
    """The ledger CTE's column list and SELECT list."""
    table = connection.ops.quote_name("wallet_transaction")
    start = sql.index(f"INSERT INTO {table} (") + len(f"INSERT INTO {table} (")
    columns, rest = sql[start:].split(")\n", 1)
    return columns, rest.split("SELECT ", 1)[1].split("\n", 1)[0]


@pytest.mark.parametrize("type_", ["credit", "debit"])
def test_the_ledger_insert_follows_a_field_added_to_the_model(type_):
    copy = with_field(Transaction, "channel", models.CharField(max_length=10, default="web"))
    ledger = ledger_columns(copy)
    columns, values = ledger_insert(one_statement_sql(type_, ledger))
    assert columns == ledger.column_list() and values == ledger.value_list()
    assert ledger.columns[-1] == "channel" and ledger.values[-1] == "%(txn__channel)s"
    txn = copy(
        team_id="team_x",
        live_mode=True,
        type=type_,
        amount=Decimal("10.00"),
        description="Movement",
        reference_type="booking",
        reference_id="ord_1",
        channel="api",
    )
    params = ledger.named_params(txn)
    assert params == {"txn__currency": "BRL", "txn__channel": "api"}  # as `save()` writes them


def test_the_real_ledger_insert_writes_every_column():
    ledger = ledger_columns()
    assert ledger.columns == [field.column for field in Transaction._meta.concrete_fields]
    # The currency is not one of the movement's parameters: the transaction's own.
    assert [f.name for f in ledger.param_fields] == ["currency"]
    assert ledger.values[ledger.columns.index("currency")] == "%(txn__currency)s"
    assert ledger_insert(one_statement_sql("debit", ledger)) == (
        ledger.column_list(),
        ledger.value_list(),
    )


@pytest.mark.parametrize("type_", ["credit", "debit"])
def test_the_one_statement_stays_within_psycopgs_statement_cache(type_):
    """psycopg turns a statement's named placeholders into PostgreSQL's once and caches the
    result, but only for a statement of at most 4096 characters and 50 parameters: past that it
    does it again at every execution (about 0.3 ms of CPU per debit). A column added to
    Transaction, Event or Delivery lengthens this statement: this says when it no longer fits."""
    sql = one_statement_sql(type_, ledger_columns())
    assert len(sql) <= MAX_CACHED_STATEMENT_LENGTH
    assert len(set(re.findall(r"%\((\w+)\)s", sql))) <= MAX_CACHED_STATEMENT_PARAMS
