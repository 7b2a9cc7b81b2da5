"""API fuzzing: schemathesis generates requests from our OpenAPI schema, valid and invalid, and
runs EVERY one of its checks on each answer (docs/fuzzing.md): no server error; status code,
content type, headers and body as documented; invalid data rejected and valid data accepted;
a missing required header refused; methods the path does not have answered 405 with `Allow`;
the answer without the API key 401; and, in the stateful phase (the schema's OpenAPI links:
recharge → read/cancel, search → book → confirm/cancel/read, client → read/update, webhook →
read/update/delete/recover), a deleted resource gone and a created one readable. With a test
and a live key.

Phases: explicit examples, coverage (boundary values, both positive and negative) and fuzzing
per operation, then the stateful phase. Derandomized so that a failure reproduces, and bounded
for CI. Outside calls are the sandbox's (no network): live searches use the sandbox supplier
(FLIGHTS_LIVE_SANDBOX: the team has no Duffel integration), live recharges the sandbox payment
provider, and webhook URLs in valid requests point at the local HTTPS receiver (the only
server a probe can reach here).
"""

import math
import re
from datetime import date, timedelta

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks, positive_data_acceptance, use_after_free
from schemathesis.generation import GenerationMode

from tests.kit.factories import fund, make_team

pytestmark = pytest.mark.django_db

EXAMPLES_PER_OPERATION = 20
STATEFUL_SCENARIOS = 20
STATEFUL_STEPS = 6
WEBHOOK_OPERATIONS = ("webhooks_create", "webhooks_update")
# DELETE of a recharge or a booking cancels it: it stays, readable, with its status
# `cancelled` (the spec's "cancel"). Only a webhook's DELETE removes it.
READS_OF_WHAT_DELETE_CANCELS = ("wallet_recharge_get", "bookings_get")

load_all_checks()
# Every check schemathesis has (max_response_time is not one by default: it needs a limit).
EVERY_CHECK = CHECKS.get_all()


def load_schema():
    loaded = schemathesis.openapi.from_wsgi("/api/v1/schema", get_wsgi_application())
    loaded.config.generation.update(
        # The API refuses NUL characters anywhere in a request (its 400 says so; JSON Schema
        # cannot): valid data has none.
        allow_x00=False,
        # The key is the test's (a team made for it), not generated; ignored_auth sends
        # requests without it and with a wrong one.
        with_security_parameters=False,
        # Query parameters an operation does not have are ignored, as most APIs do
        # (docs/fuzzing.md).
        allow_extra_parameters=False,
    )
    return loaded


schema = load_schema()
fuzz_settings = settings(
    max_examples=EXAMPLES_PER_OPERATION,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(autouse=True)
def _keep_the_test_transaction():
    """The WSGI handler closes the database connection after each request (as in production);
    here that connection holds the test's transaction. Django's test client does the same."""
    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)


@pytest.fixture(autouse=True)
def _keys_are_not_guessed_here(settings):
    """ignored_auth sends each request again without a key, or with a wrong one: past
    API_ANONYMOUS_RATE_LIMIT (60 a minute from one address) those are 429 before they are 401.
    That limit has its own tests (api/tests/test_rate_limits.py)."""
    settings.API_ANONYMOUS_RATE_LIMIT = "100000/minute"


@pytest.fixture(params=["test", "live"])
def api_key(request, db, live_sandbox):
    from wallet.services import payout_key_register

    created = make_team("Fuzz Travel", tax_id="11.222.333/0001-81")
    payout_key_register(team=created.team, key_type="cnpj", key="11222333000181")
    fund(created.team, "100000.00")
    return created.test_key if request.param == "test" else created.live_key


def _operation(case) -> str:
    return case.operation.definition.raw["operationId"]


def _reachable_webhook_url(case, receiver) -> None:
    """A valid webhook URL must also answer the probe, and the local receiver is the only
    server there is: valid requests register it (invalid ones are refused before any probe)."""
    if (
        _operation(case) in WEBHOOK_OPERATIONS
        and case.meta is not None
        and case.meta.generation.mode == GenerationMode.POSITIVE
        and isinstance(case.body, dict)
        and "url" in case.body
    ):
        case.body["url"] = receiver.url


def _checks_for(case, response) -> list:
    """Every check; only two are left out, each where its premise does not hold:
    positive_data_acceptance for the one answer that valid data can get for what no JSON
    Schema states (each reason below), and use_after_free for reading a recharge or a booking,
    which a DELETE cancels instead of removing (READS_OF_WHAT_DELETE_CANCELS)."""
    left_out = set()
    positive = case.meta is not None and case.meta.generation.mode == GenerationMode.POSITIVE
    if positive and _refused_for_what_a_schema_cannot_say(case, response):
        left_out.add(positive_data_acceptance)
    if _operation(case) in READS_OF_WHAT_DELETE_CANCELS:
        left_out.add(use_after_free)
    return [check for check in EVERY_CHECK if check not in left_out]


def _refused_for_what_a_schema_cannot_say(case, response) -> bool:
    operation, code = _operation(case), _error_code(response)
    if code is None:
        return False
    if not _within_input_limits(case.body):
        # Extra properties with numbers past 64 bits, keys with unpaired surrogates, deeper
        # than 16 levels: the input limits hold for the whole document (the 400 says so).
        return code == "invalid_request"
    if operation == "flights_search":
        # Valid searches depend on today's date (after today, at most 365 days ahead), on the
        # airport list, and on relations between items (a round trip's return reverses its
        # outbound, dates in order, at least one adult, no more infants than adults).
        return response.status_code == 400
    query = case.query or {}
    if operation == "wallet_transactions" and "start_date" in query and "end_date" in query:
        return code == "invalid_request" and query["start_date"] > query["end_date"]
    if operation in ("reports_sales", "reports_nfse") and {"start_date", "end_date"} <= set(query):
        # A report's period: the days in order, at most 366 of them.
        span = date.fromisoformat(query["end_date"]) - date.fromisoformat(query["start_date"])
        return code == "invalid_request" and not timedelta(0) <= span < timedelta(days=366)
    if operation == "wallet_recharge_create":
        # The daily limit counts the day's earlier recharges: state, not shape.
        return code == "daily_limit_exceeded"
    if operation == "wallet_withdrawals_create":
        # The minimum is a setting, and the balance and the day's limit are state, not shape.
        return code in (
            "withdrawal_below_minimum",
            "insufficient_balance",
            "withdrawal_daily_limit_exceeded",
        )
    metadata = case.body.get("metadata") if isinstance(case.body, dict) else None
    if operation == "bookings_create" and isinstance(metadata, dict) and _bad_keys(metadata):
        # metadata keys of 1 to 40 characters: OpenAPI 3.0 has no propertyNames.
        return code == "invalid_request"
    if operation == "bookings_create" and code == "invalid_passenger_data":
        # The body's passengers must be the offer's, each once: a relation to a stored offer.
        details = response.json()["error"]["details"] or {}
        return bool(details) and all(
            field == "passengers" or re.fullmatch(r"passengers\[\d+\]\.id", field)
            for field in details
        )
    if operation == "bookings_create" and code in (
        "instant_payment_required",  # a hold of an offer that must be paid at once
        "services_need_instant",  # extras on a hold
        "service_not_available",  # a service id the supplier does not sell with the offer
        "service_quantity_invalid",  # more than the service's maximum_quantity
    ):
        # Relations to the stored offer and what its supplier sells now.
        return True
    if operation in ("clients_create", "clients_update") and code == "invalid_request":
        # A CPF's or CNPJ's check digits; in Brazil a CEP and a UF (a relation to `country`,
        # on an update the stored one); metadata keys of 1 to 40 characters (no
        # propertyNames), and at most 50 keys once an update is merged with the stored ones.
        details = response.json()["error"]["details"] or {}
        return bool(details) and set(details) <= {"tax_id", "postal_code", "state", "metadata"}
    if operation == "webhooks_recover":
        # `since` within the retention window (30 days back) and not in the future: relative
        # to now.
        return code == "invalid_request"
    if operation == "events_list" and code == "invalid_request":
        # A cursor must name an event of the key's team and mode, and goes with neither `page`
        # nor the other cursor.
        details = response.json()["error"]["details"] or {}
        return bool(details) and set(details) <= {"starting_after", "ending_before", "page"}
    return False


def _bad_keys(metadata: dict) -> bool:
    return any(not 1 <= len(key) <= 40 for key in metadata)


def _within_input_limits(body, depth=1) -> bool:
    """docs/decisions.md "Input limits", written again here (not the parser's code)."""
    if isinstance(body, dict):
        return depth <= 16 and all(
            _storable(key) and _within_input_limits(value, depth + 1) for key, value in body.items()
        )
    if isinstance(body, list):
        return depth <= 16 and all(_within_input_limits(item, depth + 1) for item in body)
    if isinstance(body, str):
        return _storable(body)
    if isinstance(body, bool) or body is None:
        return True
    if isinstance(body, int):
        return abs(body) < 2**63
    if isinstance(body, float):
        return math.isfinite(body)
    return True


def _storable(text: str) -> bool:
    return "\x00" not in text and not any(0xD800 <= ord(c) <= 0xDFFF for c in text)


def _error_code(response):
    try:
        return response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def _validate(case, response, headers, recorder=None) -> None:
    case.validate_response(
        response,
        checks=_checks_for(case, response),
        headers=headers,
        transport_kwargs={"headers": headers},
        recorder=recorder,
    )


@schema.parametrize()
@fuzz_settings
def test_every_check_on_every_operation(case, api_key, https_receiver):
    headers = {"Authorization": f"Bearer {api_key}"}
    _reachable_webhook_url(case, https_receiver)
    _validate(case, case.call(headers=headers), headers)


def test_every_check_along_the_links(api_key, https_receiver):
    headers = {"Authorization": f"Bearer {api_key}"}

    # A schema of its own: schemathesis learns from the answers it sees (constants, resources),
    # and what other tests taught it would make the scenarios depend on which ran before (under
    # pytest-xdist, Hypothesis then finds the generation inconsistent).
    class Machine(load_schema().as_state_machine()):
        # Each scenario starts from the same database (the team and its funds): Hypothesis
        # replays scenarios and needs the same answers to the same requests, and what one
        # scenario wrote (webhooks, recharges, bookings) would change the next one's answers.
        def setup(self):
            self._scenario = transaction.atomic()
            self._scenario.__enter__()

        def teardown(self):
            transaction.set_rollback(True)
            self._scenario.__exit__(None, None, None)

        def call(self, case, **kwargs):
            _reachable_webhook_url(case, https_receiver)
            return case.call(headers=headers)

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            _validate(case, response, headers, recorder=self.recorder)

    Machine.run(
        settings=settings(
            fuzz_settings,
            max_examples=STATEFUL_SCENARIOS,
            stateful_step_count=STATEFUL_STEPS,
        )
    )


def test_every_check_is_one_of_those_run():
    assert {check.__name__ for check in EVERY_CHECK} >= {
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
        "response_schema_conformance",
        "negative_data_rejection",
        "positive_data_acceptance",
        "missing_required_header",
        "unsupported_method",
        "allow_header_conformance",
        "use_after_free",
        "ensure_resource_availability",
        "ignored_auth",
        "object_level_authorization",
    }
