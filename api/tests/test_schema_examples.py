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
            r["content"]["application/json"].get("examples")
            for status, r in operation["responses"].items()
            if status.startswith("2") and "content" in r
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
        answer = f"{pointer}/responses/{example['status']}/content/application~1json/schema"
        errors = list(validator_for(schema, answer).iter_errors(example["response"]))
        assert not errors, (operation["operationId"], [e.message for e in errors[:3]])
        if "request" in example:
            body = f"{pointer}/requestBody/content/application~1json/schema"
            errors = list(validator_for(schema, body).iter_errors(example["request"]))
            assert not errors, (operation["operationId"], [e.message for e in errors[:3]])
        checked += 1
    assert checked == len(examples) - 1 == 27  # and the events


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
