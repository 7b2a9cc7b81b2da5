"""The deliveries' hand-written attempt INSERT (webhooks/services/delivery_sql.py, alone and in
the one-statement record of a success) takes its column list from DeliveryAttempt's fields
(`core.sql.InsertColumns`): a field added to the model is written too, with the attempt's
value, and every column of the real model but its id is written."""

import re
from datetime import UTC, datetime

from django.db import connection, models

from tests.kit.model_copies import with_field
from webhooks.models import DeliveryAttempt
from webhooks.services import delivery_sql

AT = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def channel() -> models.CharField:
    """The field the tests add: with a default, as a column added to a table with rows is."""
    return models.CharField(max_length=10, default="web")


def quoted(column: str) -> str:
    return connection.ops.quote_name(column)


def insert_lists(sql: str, table: str) -> tuple[list[str], list[str]]:
    """The column list and the VALUES of the INSERT INTO `table` in `sql` (`VALUES (…)
    RETURNING`: its values are placeholders)."""
    insert = rf"INSERT INTO {re.escape(quoted(table))} \((.*?)\) VALUES \((.*?)\) RETURNING"  # noqa: S608
    found = re.search(insert, sql)
    assert found is not None, sql
    return found[1].split(", "), found[2].split(", ")


def attempt_of(model: type[models.Model], **extra) -> models.Model:
    return model(
        delivery_id=7,
        number=1,
        attempted_at=AT,
        succeeded=True,
        status_code=200,
        duration_ms=3,
        error="",
        response_excerpt="ok",
        request_headers={},
        **extra,
    )


def test_the_attempt_insert_follows_a_field_added_to_the_model():
    copy = with_field(DeliveryAttempt, "channel", channel())
    columns, values = insert_lists(
        delivery_sql.attempt_insert_sql(copy), "webhooks_deliveryattempt"
    )
    assert columns[-1] == quoted("channel") and values[-1] == "%s"
    assert len(columns) == len(values)
    params = delivery_sql.attempt_columns(copy).params(attempt_of(copy, channel="api"))
    assert len(params) == len(values) and params[-1] == "api"


def test_the_one_statement_success_record_follows_a_field_added_to_the_attempt():
    copy = with_field(DeliveryAttempt, "channel", channel())
    columns, values = insert_lists(delivery_sql.success_sql(copy), "webhooks_deliveryattempt")
    assert columns[-1] == quoted("channel") and values[-1] == "%(attempt_channel)s"
    params = delivery_sql.attempt_columns(copy, prefix="attempt_").named_params(attempt_of(copy))
    assert params["attempt_channel"] == "web"  # the attempt's value: its default here
    assert [f"%({name})s" for name in params] == values


def test_the_real_attempt_insert_writes_every_column_but_the_id():
    columns, values = insert_lists(delivery_sql.attempt_insert_sql(), "webhooks_deliveryattempt")
    concrete = [field.column for field in DeliveryAttempt._meta.concrete_fields]
    assert columns == [quoted(column) for column in concrete if column != "id"]
    assert values == ["%s"] * len(columns)
    row = attempt_of(DeliveryAttempt)
    assert len(delivery_sql.attempt_columns().params(row)) == len(columns)
