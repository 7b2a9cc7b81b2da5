"""The webhooks app's hand-written INSERTs take their column lists from the models' fields
(`core.sql.InsertColumns`): the attempt's (webhooks/services/delivery_sql.py, alone and in the
one-statement record of a success) and the event recorder's event and deliveries (`EventSql`).
A field added to DeliveryAttempt, Event or Delivery is written by the SQL too, with its value
or default, or the SQL is not built; and every column of the real models is written or left to
a database default."""

import re
from datetime import UTC, datetime

import pytest
from django.db import connection, models

from tests.kit.model_copies import with_field
from webhooks.models import Delivery, DeliveryAttempt, Event
from webhooks.services import EventSql, delivery_sql
from webhooks.services.events import delivery_columns, event_columns, event_ctes

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


SQL = EventSql(name="tested", source="(VALUES (1)) AS source")


def ctes_with(*, event: type[models.Model] = Event, delivery: type[models.Model] = Delivery):
    events, deliveries = event_columns(SQL, event), delivery_columns(SQL.name, delivery)
    return events, deliveries, event_ctes(SQL, events, deliveries)


def test_the_event_insert_follows_a_field_added_to_the_model():
    events, _, ctes = ctes_with(event=with_field(Event, "channel", channel()))
    assert events.columns[-1] == "channel"
    assert events.values[-1] == "%(tested__event__channel)s"
    assert f"INSERT INTO {quoted('webhooks_event')} ({events.column_list()})" in ctes
    assert f"SELECT {events.value_list()}\n" in ctes
    assert events.named_params() == {"tested__event__channel": "web"}


def test_the_delivery_insert_follows_a_field_added_to_the_model():
    _, deliveries, ctes = ctes_with(delivery=with_field(Delivery, "channel", channel()))
    assert deliveries.columns[-1] == "channel"
    assert deliveries.values[-1] == "%(delivery__channel)s"
    assert f"INSERT INTO {quoted('webhooks_delivery')} ({deliveries.column_list()})" in ctes
    assert f"SELECT {deliveries.value_list()}\n" in ctes
    assert deliveries.named_params()["delivery__channel"] == "web"


@pytest.mark.parametrize("model", [Event, Delivery])
def test_a_field_added_without_a_default_is_refused_not_left_out(model):
    required = with_field(model, "channel", models.CharField(max_length=10))
    with pytest.raises(ValueError, match=r"gives \w+With\w*\.channel no value"):
        ctes_with(**{model._meta.model_name: required})


def test_a_field_added_with_a_fresh_value_per_row_is_refused_in_the_deliveries():
    """One statement writes a delivery per endpoint: one value of a callable default would be
    every delivery's."""
    token = with_field(Delivery, "token", models.CharField(max_length=10, default=str))
    with pytest.raises(ValueError, match=r"DeliveryWithToken.token: a callable default"):
        ctes_with(delivery=token)


def test_the_real_event_and_delivery_inserts_write_every_column_but_database_defaults():
    events, deliveries, _ = ctes_with()
    assert events.columns == [field.column for field in Event._meta.concrete_fields]
    # The delivery's id, in_flight and is_test are the database's (its defaults).
    left = {"id", "in_flight", "is_test"}
    fields = Delivery._meta.concrete_fields
    assert {field.column for field in fields if field.has_db_default()} | {"id"} == left
    assert deliveries.columns == [field.column for field in fields if field.column not in left]
    # The others get the defaults `deliveries_create` leaves them.
    params = SQL.params(
        team_id="team_x", live_mode=True, type="wallet.credit", data_object={}, created_at=AT
    )
    assert (
        params.items()
        >= {
            "delivery__status": "pending",
            "delivery__attempt_count": 0,
            "delivery__leased_until": None,
            "delivery__lease_id": "",
        }.items()
    )
