"""API fuzzing: schemathesis generates requests from our OpenAPI schema, valid and invalid, and
every answer must be no server error and must match the schema (status code documented, body
of the documented shape), with a test key and with a live key.

Bounded for CI: a fixed number of examples per operation, derandomized so that a failure
reproduces. Outside calls are the sandbox's (no network): live searches use the sandbox supplier
(allowed explicitly, FLIGHTS_LIVE_SANDBOX: the team has no Duffel integration), and live
recharges the sandbox payment provider.
"""

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings

from agencies.tests.factories import make_team
from wallet.tests.factories import fund

pytestmark = pytest.mark.django_db

EXAMPLES_PER_OPERATION = 25

schema = schemathesis.openapi.from_wsgi("/api/v1/schema", get_wsgi_application())


@pytest.fixture(autouse=True)
def _keep_the_test_transaction():
    """The WSGI handler closes the database connection after each request (as in production);
    here that connection holds the test's transaction. Django's test client does the same."""
    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)


@pytest.fixture(params=["test", "live"])
def api_key(request, db, live_sandbox):
    created = make_team("Fuzz Travel")
    fund(created.team, "100000.00")
    return created.test_key if request.param == "test" else created.live_key


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_server_error_and_every_answer_matches_the_schema(case, api_key):
    case.call_and_validate(
        headers={"Authorization": f"Bearer {api_key}"},
        checks=[
            schemathesis.checks.not_a_server_error,
            schemathesis.checks.status_code_conformance,
            schemathesis.checks.content_type_conformance,
            schemathesis.checks.response_schema_conformance,
        ],
    )
