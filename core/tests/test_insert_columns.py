"""`core.sql.InsertColumns`: the column list and values of a hand-written INSERT come from the
model's fields by one rule, so a field added to the model is written too, or the SQL is not
built; it is never left out silently."""

from decimal import Decimal

import pytest
from django.apps.registry import Apps
from django.db import connection, models

from core.sql import InsertColumns


def new_id() -> str:
    return "id_1"


def model(**fields) -> type[models.Model]:
    """A model of an app registry of its own (nothing else sees it)."""
    meta = type("Meta", (), {"apps": Apps(), "app_label": "core", "managed": False})
    return type("Row", (models.Model,), {"__module__": __name__, "Meta": meta, **fields})


ROW = model(
    amount=models.DecimalField(max_digits=14, decimal_places=2),
    currency=models.CharField(max_length=3, default="BRL"),
    note=models.TextField(null=True),
    flags=models.JSONField(default=dict),
    hidden=models.BooleanField(db_default=False),
    counted=models.BooleanField(default=False, db_default=False),
    balance=models.DecimalField(max_digits=14, decimal_places=2),
)


def test_without_a_row_a_column_not_computed_is_its_default():
    columns = InsertColumns(
        ROW, computed={"amount": "%(amount)s", "balance": "moved.balance"}, prefix="row__"
    )
    # The auto id and the columns with a database default are the database's.
    assert columns.columns == ["amount", "currency", "note", "flags", "balance"]
    assert columns.values == [
        "%(amount)s",
        "%(row__currency)s",
        "%(row__note)s",
        "%(row__flags)s",
        "moved.balance",
    ]
    params = columns.named_params()
    assert set(params) == {"row__currency", "row__note", "row__flags"}
    assert (params["row__currency"], params["row__note"]) == ("BRL", None)
    # Adapted by the field, as the ORM adapts it (a JSON wrapper on PostgreSQL).
    flags = ROW._meta.get_field("flags").get_db_prep_save({}, connection)
    assert type(params["row__flags"]) is type(flags)
    q = connection.ops.quote_name
    assert columns.column_list() == ", ".join(q(column) for column in columns.columns)
    assert columns.value_list() == ", ".join(columns.values)


def test_with_a_row_every_column_not_computed_is_the_rows():
    columns = InsertColumns(ROW, computed={"balance": "moved.balance"}, from_row=True)
    assert columns.columns == [
        "amount",
        "currency",
        "note",
        "flags",
        "hidden",
        "counted",
        "balance",
    ]
    assert columns.values == ["%s"] * 6 + ["moved.balance"]
    row = ROW(amount=Decimal("10.50"), currency="USD", note="n", hidden=True, counted=True)
    params = columns.params(row)
    assert params[:3] == [
        connection.ops.adapt_decimalfield_value(Decimal("10.50"), 14, 2),
        "USD",
        "n",
    ]
    assert params[4:] == [True, True]


def test_a_column_with_no_value_and_no_default_is_refused():
    with pytest.raises(ValueError, match=r"gives Row.amount no value"):
        InsertColumns(ROW, computed={"balance": "0"})


def test_a_callable_default_is_refused_in_a_statement_of_many_rows():
    row = model(key=models.CharField(max_length=10, default=new_id))
    assert InsertColumns(row).params() == ["id_1"]  # one row: one value
    with pytest.raises(ValueError, match=r"Row.key: a callable default"):
        InsertColumns(row, one_row=False)
    computed = InsertColumns(row, computed={"key": "other.key"}, one_row=False)
    assert computed.values == ["other.key"]


def test_a_computed_name_that_is_no_column_is_refused():
    with pytest.raises(ValueError, match=r"Not columns of Row: \['amont'\]"):
        InsertColumns(ROW, computed={"amont": "1", "amount": "1", "balance": "1"})
