"""The ledger row of the one-statement movement (wallet/services/ledger.py) takes its column list
from Transaction's fields (`core.sql.InsertColumns`): the balance and the sequence from the
balance's UPDATE, the movement's values from the statement's parameters, every other column
from the transaction the portable path saves. A field added to Transaction is written by the
statement too, with the transaction's value; every column of the real model is written; and the
statement stays within what psycopg caches."""

import re
from decimal import Decimal

import pytest
from django.db import connection, models
from psycopg._queries import MAX_CACHED_STATEMENT_LENGTH, MAX_CACHED_STATEMENT_PARAMS

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
