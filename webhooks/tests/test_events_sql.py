"""`EventSql`: the rows `event_record` writes, as SQL a caller embeds in its own statement (the
wallet's one-statement path), from the same subscription rule. PostgreSQL only, like its one
user. Its INSERTs take their column lists from Event's and Delivery's fields: a field added to
either is written too, or the SQL is not built (these run on SQLite too)."""

from datetime import UTC, datetime
from decimal import Decimal

import orjson
import pytest
from django.db import connection, models, transaction

from tests.kit.factories import make_endpoint
from tests.kit.marks import needs_postgresql
from tests.kit.model_copies import with_field
from wallet.services.ledger import wallet_move
from webhooks.models import SUBSCRIBABLE_EVENT_TYPES, Delivery, Event, EventType
from webhooks.services import EventSql, event_record
from webhooks.services.events import delivery_columns, event_columns, event_ctes

pytestmark = pytest.mark.django_db
postgresql_only = needs_postgresql("EventSql writes PostgreSQL SQL")

ALL_TYPES = sorted(SUBSCRIBABLE_EVENT_TYPES)
# label: (live_mode, active, events)
ENDPOINTS = {
    "live-all": (True, True, ALL_TYPES),
    "test-all": (False, True, ALL_TYPES),
    "live-inactive": (True, False, ALL_TYPES),
    "live-bookings": (True, True, ["booking.created", "booking.cancelled"]),
    "live-debits": (True, True, ["wallet.debit"]),
}


def add_endpoints(team):
    for label, (live_mode, active, events) in ENDPOINTS.items():
        make_endpoint(
            team,
            f"https://hooks.example.com/{team.pk}/{label}",
            live_mode=live_mode,
            active=active,
            events=events,
        )


def receivers(event: Event) -> list[tuple[bool, str]]:
    """(of the event's team?, label) of each endpoint the event has a delivery for."""
    return sorted(
        (delivery.endpoint.team_id == event.team_id, delivery.endpoint.url.rsplit("/", 1)[1])
        for delivery in event.deliveries.select_related("endpoint")
    )


def run_alone(event_sql: EventSql, params: dict) -> list[int]:
    """The event as the only thing its statement writes; returns the delivery ids written."""
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {event_sql.ctes} SELECT ARRAY({event_sql.delivery_ids})", params)
        return cursor.fetchone()[0]


@postgresql_only
def test_the_sql_delivers_every_type_and_mode_to_the_endpoints_event_record_does(team, other_team):
    add_endpoints(team)
    add_endpoints(other_team)  # the same endpoints on another team get nothing
    tested = EventSql(name="tested", source="(VALUES (1)) AS source")
    expected_count = 0
    for type_ in ALL_TYPES:
        for live_mode in (True, False):
            with transaction.atomic():
                by_orm = event_record(
                    team=team, live_mode=live_mode, type=type_, data_object={"n": 1}
                )
                params = tested.params(
                    team_id=team.pk,
                    live_mode=live_mode,
                    type=type_,
                    data_object={"n": 1},
                    created_at=by_orm.created_at,
                )
                delivery_ids = run_alone(tested, params)
            by_sql = Event.objects.get(pk=params["tested__id"])

            assert receivers(by_sql) == receivers(by_orm), (type_, live_mode)
            # ... and both are the rule, not merely equal.
            expected = sorted(
                (True, label)
                for label, (mode, active, events) in ENDPOINTS.items()
                if mode == live_mode and active and type_ in events
            )
            assert receivers(by_orm) == expected, (type_, live_mode)
            assert sorted(delivery_ids) == sorted(by_sql.deliveries.values_list("pk", flat=True))
            expected_count += len(expected)
            for field in ("team_id", "live_mode", "type", "api_version", "data_object"):
                assert getattr(by_sql, field) == getattr(by_orm, field), field
            assert by_sql.previous_attributes == by_orm.previous_attributes == {}
            for delivery in by_sql.deliveries.all():
                assert (delivery.status, delivery.attempt_count, delivery.lease_id) == (
                    "pending",
                    0,
                    "",
                )
                assert delivery.next_attempt_at == by_sql.created_at  # due at once
    assert expected_count > 2 * len(ALL_TYPES)  # live-all and test-all, plus the narrower ones


@postgresql_only
def test_fields_only_the_statement_knows_are_set_from_its_source(team):
    computed = EventSql(
        name="computed",
        source="(SELECT 42.50::numeric AS amount, 7 AS count) AS source",
        data_object_sql={"amount": "source.amount"},
        previous_attributes_sql={"count": "source.count"},
    )
    params = computed.params(
        team_id=team.pk,
        live_mode=True,
        type=EventType.WALLET_CREDIT,
        data_object={"object": "transaction", "amount": None, "kept": "as given"},
        previous_attributes={"count": None},
        created_at=team.created_at,
    )
    with transaction.atomic():
        run_alone(computed, params)
    event = Event.objects.get(pk=params["computed__id"])
    assert event.data_object == {"object": "transaction", "amount": "42.50", "kept": "as given"}
    assert event.previous_attributes == {"count": "7"}


@postgresql_only
def test_a_source_without_a_row_writes_no_event_and_no_delivery(team):
    make_endpoint(team, "https://hooks.example.com/all", events=ALL_TYPES)
    skipped = EventSql(name="skipped", source="(VALUES (1)) AS source WHERE FALSE")
    params = skipped.params(
        team_id=team.pk,
        live_mode=True,
        type=EventType.WALLET_LOW_BALANCE,
        data_object={},
        created_at=team.created_at,
    )
    with transaction.atomic():
        assert run_alone(skipped, params) == []
    assert not Event.objects.filter(type="wallet.low_balance").exists()
    assert not Delivery.objects.exists()


def test_names_that_are_not_plain_identifiers_are_refused():
    with pytest.raises(ValueError, match="plain name"):
        EventSql(name="x; DROP TABLE webhooks_event", source="(VALUES (1)) AS source")
    with pytest.raises(ValueError, match="plain name"):
        EventSql(name="ok", source="(VALUES (1)) AS source", data_object_sql={"a}'": "1"})


@pytest.mark.parametrize(
    "one_statement",
    [
        pytest.param(False, id="plain"),
        pytest.param(True, id="one-statement", marks=postgresql_only),
    ],
)
def test_every_delivery_a_ledger_path_writes_is_sent_after_commit(
    team, https_receiver, django_capture_on_commit_callbacks, one_statement
):
    make_endpoint(team, https_receiver.url_for("/all"), events=ALL_TYPES)
    make_endpoint(team, https_receiver.url_for("/low"), events=["wallet.low_balance"])
    make_endpoint(team, https_receiver.url_for("/debit"), events=["wallet.debit"])
    movement = {
        "team": team,
        "live_mode": True,
        "description": "Movement",
        "one_statement": one_statement,
    }
    wallet_move(
        **movement,
        type="credit",
        amount=Decimal("600.00"),
        reference_type="recharge",
        reference_id="rch_1",
        payment_method="pix",
    )  # its commit never runs (the test's transaction), but its delivery to /all stays due

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        wallet_move(
            **movement,
            type="debit",
            amount=Decimal("200.00"),  # 600.00 -> 400.00: a debit and a low-balance event
            reference_type="booking",
            reference_id="ord_1",
            payment_method="",
        )
    written = Delivery.objects.exclude(event__type="wallet.credit")
    assert written.count() == 4  # debit: /all, /debit; low balance: /all, /low
    assert https_receiver.requests == []  # nothing is sent before the commit

    for callback in callbacks:  # what the commit runs
        callback()

    sent = sorted(
        (orjson.loads(request.body)["id"], orjson.loads(request.body)["webhook_id"])
        for request in https_receiver.requests
    )
    # Each endpoint's batch takes all its due deliveries: the credit's to /all goes too.
    assert sent == sorted(Delivery.objects.values_list("event_id", "endpoint_id"))
    assert set(written.values_list("event_id", "endpoint_id")) < set(sent)
    assert set(written.values_list("status", flat=True)) == {"succeeded"}


@postgresql_only
def test_data_is_stored_as_event_record_stores_it(team):
    """Decimals, datetimes and nested values encoded as the ORM path's DjangoJSONEncoder does."""
    data = {
        "amount": Decimal("10.50"),
        "at": datetime(2026, 11, 23, 12, 30, 15, 123456, tzinfo=UTC),
        "nested": {"list": [1, "two", None, True]},
        "text": "ção \"quoted\" 'single' %s",
    }
    encoded = EventSql(name="encoded", source="(VALUES (1)) AS source")
    with transaction.atomic():
        by_orm = event_record(team=team, live_mode=True, type="wallet.credit", data_object=data)
        params = encoded.params(
            team_id=team.pk,
            live_mode=True,
            type="wallet.credit",
            data_object=data,
            previous_attributes=data,
            created_at=by_orm.created_at,
        )
        run_alone(encoded, params)
    by_orm.refresh_from_db()
    by_sql = Event.objects.get(pk=params["encoded__id"])
    assert by_sql.data_object == by_sql.previous_attributes == by_orm.data_object
    assert by_orm.data_object["at"] == "2026-11-23T12:30:15.123Z"  # Django's form, not orjson's


# --- The INSERTs' columns follow the models' fields -------------------------------------------

AT = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
SQL = EventSql(name="tested", source="(VALUES (1)) AS source")


def channel() -> models.CharField:
    """The field the tests add: with a default, as a column added to a table with rows is."""
    return models.CharField(max_length=10, default="web")


def ctes_with(*, event: type[models.Model] = Event, delivery: type[models.Model] = Delivery):
    events, deliveries = event_columns(SQL, event), delivery_columns(SQL.name, delivery)
    return events, deliveries, event_ctes(SQL, events, deliveries)


def test_the_event_insert_follows_a_field_added_to_the_model():
    events, _, ctes = ctes_with(event=with_field(Event, "channel", channel()))
    assert events.columns[-1] == "channel"
    assert events.values[-1] == "%(tested__event__channel)s"
    assert (
        f"INSERT INTO {connection.ops.quote_name('webhooks_event')} ({events.column_list()})"
        in ctes
    )
    assert f"SELECT {events.value_list()}\n" in ctes
    assert events.named_params() == {"tested__event__channel": "web"}


def test_the_delivery_insert_follows_a_field_added_to_the_model():
    _, deliveries, ctes = ctes_with(delivery=with_field(Delivery, "channel", channel()))
    assert deliveries.columns[-1] == "channel"
    assert deliveries.values[-1] == "%(delivery__channel)s"
    assert (
        f"INSERT INTO {connection.ops.quote_name('webhooks_delivery')} ({deliveries.column_list()})"
        in ctes
    )
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
    # The event's xact_id is the database's: the recording transaction's id (its default).
    assert [f.column for f in Event._meta.concrete_fields if f.has_db_default()] == ["xact_id"]
    assert events.columns == [
        field.column for field in Event._meta.concrete_fields if field.column != "xact_id"
    ]
    # The delivery's id, in_flight and is_test are the database's (its defaults).
    left = {"id", "in_flight", "is_test"}
    fields = Delivery._meta.concrete_fields
    assert {field.column for field in fields if field.has_db_default()} | {"id"} == left
    assert deliveries.columns == [field.column for field in fields if field.column not in left]
    # The others get the defaults `deliveries_create` leaves them.
    params = SQL.params(
        team_id="team_x",
        live_mode=True,
        type="wallet.credit",
        data_object={},
        created_at=AT,
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
