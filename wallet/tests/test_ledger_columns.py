"""The ledger row of the one-statement movement (wallet/services/ledger.py) takes its column list
from Transaction's fields (`core.sql.InsertColumns`): the balance and the sequence from the
balance's UPDATE, every other column from the transaction the portable path saves. A field added
to Transaction is written by the statement too, with the transaction's value; every column of
the real model is written."""

from decimal import Decimal

import pytest
from django.db import connection, models

from tests.kit.model_copies import with_field
from wallet.models import Transaction
from wallet.services.ledger import ledger_columns, one_statement_sql


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
    assert params["txn__channel"] == "api"  # the transaction's own value, as `save()` writes
    assert params["txn__id"] == txn.id and params["txn__currency"] == "BRL"


def test_the_real_ledger_insert_writes_every_column():
    ledger = ledger_columns()
    assert ledger.columns == [field.column for field in Transaction._meta.concrete_fields]
    computed = {"balance_after": "moved.balance", "sequence": "moved.movement_count"}
    for column, value in zip(ledger.columns, ledger.values, strict=True):
        assert value == computed.get(column, f"%(txn__{column})s")
    assert ledger_insert(one_statement_sql("debit", ledger)) == (
        ledger.column_list(),
        ledger.value_list(),
    )
