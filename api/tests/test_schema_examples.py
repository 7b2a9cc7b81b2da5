"""The schema's examples are true: each operation's sandbox example (api/api_examples.json,
from `python -m tests.tools.capture_api_examples`) validates against the schema the operation
declares, and every operation has a summary, a description, an answer example and, when it
takes a body, a request example."""

import copy

import pytest
from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from api.schema import sandbox_examples
from api.versions import latest_version


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def as_json_schema(node):
    """OpenAPI 3.0's `nullable` as JSON Schema's null type; refs kept."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: as_json_schema(value) for key, value in node.items()}
    if node.pop("nullable", False):
        node = {"anyOf": [node, {"type": "null"}]}
    return node


def validator_for(schema, fragment):
    document = as_json_schema(copy.deepcopy(schema))
    registry = Registry().with_resource("urn:api", Resource.from_contents(document, DRAFT202012))
    rooted = {"$ref": "urn:api#" + fragment}
    return Draft202012Validator(rooted, registry=registry)


def operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def test_every_operation_describes_itself_with_examples(schema):
    for path, method, operation in operations(schema):
        where = f"{method.upper()} {path}"
        assert operation.get("summary") and operation.get("description"), where
        answers = [
            content.get("examples")
            for status, r in operation["responses"].items()
            if status.startswith("2") and "content" in r
            for content in r["content"].values()
        ]
        assert any(answers), f"{where}: no answer example"
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None:
            assert body.get("examples"), f"{where}: no request example"


def test_sandbox_examples_match_the_schema(schema):
    examples = sandbox_examples()
    checked = 0
    for path, method, operation in operations(schema):
        example = examples.get(operation["operationId"])
        assert example, f"{operation['operationId']} has no sandbox example"
        pointer = f"/paths/{path.replace('/', '~1')}/{method}"
        content = operation["responses"][example["status"]]["content"]
        media_type = "application~1json" if "application/json" in content else "text~1csv"
        answer = f"{pointer}/responses/{example['status']}/content/{media_type}/schema"
        errors = list(validator_for(schema, answer).iter_errors(example["response"]))
        assert not errors, (operation["operationId"], [e.message for e in errors[:3]])
        if "request" in example:
            body = f"{pointer}/requestBody/content/application~1json/schema"
            errors = list(validator_for(schema, body).iter_errors(example["request"]))
            assert not errors, (operation["operationId"], [e.message for e in errors[:3]])
        checked += 1
    assert checked == len(examples) - 1 == 42  # and the events


def test_every_event_type_has_a_documented_payload_with_a_true_example(schema):
    from api.schema import event_component_name
    from webhooks.models import SUBSCRIBABLE_EVENT_TYPES

    documented = {n for n in schema["components"]["schemas"] if n.endswith("Event")} - {"Event"}
    assert documented == {event_component_name(t) for t in SUBSCRIBABLE_EVENT_TYPES}
    for event_type in SUBSCRIBABLE_EVENT_TYPES:
        name = event_component_name(event_type)
        component = schema["components"]["schemas"][name]
        example = component["example"]
        assert example["type"] == event_type
        errors = list(validator_for(schema, f"/components/schemas/{name}").iter_errors(example))
        assert not errors, (event_type, [e.message for e in errors[:3]])
        wrong = {**example, "type": "wallet.stolen"}
        assert list(validator_for(schema, f"/components/schemas/{name}").iter_errors(wrong))


@pytest.mark.django_db
def test_a_cancellations_events_carry_its_refund_as_the_schema_types_it(
    schema, live_client, team, settings
):
    """`booking.cancelled` (and its `booking.updated`) carry the cancel's `refund` exactly as
    DELETE answers it, a voucher's credits included, and validate against their components;
    the booking's other events have no `refund`."""
    from api.schema import event_component_name
    from bookings.tests.helpers import book, offers, passenger
    from tests.kit.factories import fund
    from webhooks.models import Event
    from webhooks.payloads import event_object

    settings.FLIGHTS_LIVE_SANDBOX = True
    fund(team, "100000.00")
    offer = next(
        o
        for o in offers(live_client)
        if o["conditions"]["refund_before_departure"]["allowed"]
        and o["conditions"]["refund_before_departure"]["penalty_amount"]
    )
    people = [passenger(offer["passengers"][0]["id"], family_name="Refundvoucher")]
    booking = book(live_client, offer, type="instant", people=people).json()
    refund = live_client.delete(f"/api/v1/bookings/{booking['id']}").json()["data"]["refund"]
    assert refund["refund_to"] == "voucher" and refund["airline_credits"]

    events = Event.objects.filter(team=team, data_object__id=booking["id"]).order_by("created_at")
    carrying = {e.type: e.data_object["refund"] for e in events if "refund" in e.data_object}
    assert carrying == {"booking.cancelled": refund, "booking.updated": refund}
    assert events.filter(type="booking.ticketed").get().data_object.get("refund") is None
    for event in events.filter(type__in=["booking.cancelled", "booking.updated"]):
        if "refund" not in event.data_object:
            continue
        name = event_component_name(event.type)
        body = event_object(  # the schema describes the latest version's shapes
            event, webhook_id="wh_01m84tymf0example0000000000", api_version=latest_version()
        )
        errors = list(validator_for(schema, f"/components/schemas/{name}").iter_errors(body))
        assert not errors, (event.type, [e.message for e in errors[:3]])
    wrong = {**refund, "refund_to": "pocket"}
    component = "/components/schemas/BookingEventObject"
    cancelled = events.get(type="booking.cancelled").data_object
    assert list(validator_for(schema, component).iter_errors({**cancelled, "refund": wrong}))


def test_an_event_is_one_of_the_types_told_apart_by_type(schema):
    """The events API's `Event` is a `oneOf` of every subscribable type's component with a
    discriminator on `type`, so generated clients narrow `data.object` by the type."""
    from api.schema import event_component_name
    from webhooks.models import SUBSCRIBABLE_EVENT_TYPES

    event = schema["components"]["schemas"]["Event"]
    refs = {t: f"#/components/schemas/{event_component_name(t)}" for t in SUBSCRIBABLE_EVENT_TYPES}
    assert event["discriminator"] == {"propertyName": "type", "mapping": refs}
    assert sorted(one["$ref"] for one in event["oneOf"]) == sorted(refs.values())
    validator = validator_for(schema, "/components/schemas/Event")
    debit = sandbox_examples()["events"]["wallet.debit"]
    assert not list(validator.iter_errors(debit))
    # A debit's body under another type's name matches no component.
    assert list(validator.iter_errors({**debit, "type": "booking.ticketed"}))
