"""The fixtures every test of the suite may ask for, registered for the whole suite by the root
conftest.py (`pytest_plugins`). An app's own fixtures stay in its `tests/conftest.py`."""

from typing import NamedTuple

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection
from rest_framework.test import APIClient

from agencies.models import Team, User
from agencies.services import TeamCreated
from tests.kit import browsers, pooler
from tests.kit.clock import NOW
from tests.kit.factories import make_team
from tests.kit.receiver import Receiver


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings, django_db_blocker):
    """Behind PgBouncer (DATABASE_DIRECT_URL set), the test database is created and migrated
    over a direct connection (tests/kit/pooler.py)."""
    if pooler.through_pooler():
        pooler.connect_direct()
        with django_db_blocker.unblock():
            pooler.end_pooled_sessions(pooler.test_database_name())


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """...and the tests run through the pooler, then the database is dropped directly."""
    if not pooler.through_pooler():
        yield
        return
    pooler.connect_pooled()
    yield
    with django_db_blocker.unblock():
        pooler.connect_direct()
        pooler.end_pooled_sessions(connection.settings_dict["NAME"])


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # rate-limit windows must not leak between tests
    yield
    cache.clear()


@pytest.fixture
def frozen_time():
    """The clock stopped at `NOW` (tests/kit/clock.py) for the whole test; the traveller moves
    it (`frozen_time.shift(seconds)`). A module asks for it with
    `pytestmark = pytest.mark.usefixtures("frozen_time")`, before its other fixtures run."""
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


class TeamKeys(NamedTuple):
    """A team's two API keys, as `create_team` prints them (the secrets)."""

    test_key: str
    live_key: str


# Two agencies as `create_team` makes them (wallet, owner panel user, a test and a live key).
# A test asks for what it uses: the Team (`team`), its keys (`team_keys`), its owner
# (`team_owner`); all three come from the same made team.


@pytest.fixture
def _alpha(db) -> TeamCreated:
    return make_team("Alpha Travel")


@pytest.fixture
def team(_alpha) -> Team:
    return _alpha.team


@pytest.fixture
def team_keys(_alpha) -> TeamKeys:
    return TeamKeys(test_key=_alpha.test_key, live_key=_alpha.live_key)


@pytest.fixture
def team_owner(_alpha) -> User:
    return _alpha.owner


@pytest.fixture
def _beta(db) -> TeamCreated:
    return make_team("Beta Tours")


@pytest.fixture
def other_team(_beta) -> Team:
    return _beta.team


@pytest.fixture
def other_team_keys(_beta) -> TeamKeys:
    return TeamKeys(test_key=_beta.test_key, live_key=_beta.live_key)


@pytest.fixture
def other_team_owner(_beta) -> User:
    return _beta.owner


@pytest.fixture
def anon_client():
    return APIClient()


@pytest.fixture
def test_client(team_keys):
    """An API client authenticated with the team's test (sandbox) key."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.test_key}")
    return client


@pytest.fixture
def live_client(team_keys):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}")
    return client


@pytest.fixture(scope="session")
def _receiver_server():
    receiver = Receiver().start()
    yield receiver
    receiver.stop()


@pytest.fixture
def https_receiver(_receiver_server, settings, monkeypatch):
    """A real HTTPS receiver on 127.0.0.1, trusted through REQUESTS_CA_BUNDLE as an agency's
    public server would be through the system CAs, with loopback exempted from the SSRF rules
    the way a developer's WEBHOOKS_ALLOWED_NETWORKS would."""
    settings.WEBHOOKS_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", _receiver_server.ca_path)
    _receiver_server.reset()
    yield _receiver_server
    _receiver_server.reset()


@pytest.fixture
def receiver():
    """A receiver of this test's own, for processes started apart (tests/kit/stack.py), which
    trust it through their own REQUESTS_CA_BUNDLE (`receiver.ca_path`)."""
    server = Receiver().start()
    yield server
    server.stop()


@pytest.fixture
def broker():
    """The test process queues through Redis for real (not eagerly), on an empty queue, for
    tests with a real Celery worker."""
    from config.celery_app import app

    app.conf.task_always_eager = False
    app.control.purge()
    yield app
    app.control.purge()
    app.conf.task_always_eager = True


@pytest.fixture
def live_sandbox(settings):
    """Live keys search and book the sandbox supplier, as `FLIGHTS_LIVE_SANDBOX=true` allows
    (demos, staging). Without it a live team needs a connected supplier."""
    settings.FLIGHTS_LIVE_SANDBOX = True


@pytest.fixture
def browser():
    """Headless Chromium asking for English (tests/kit/browsers.py; mark the module
    `needs_chromium`)."""
    driver = browsers.english_chromium()
    yield driver
    driver.quit()


@pytest.fixture
def browser_pt_br():
    """Headless Chromium asking for Brazilian Portuguese, in a desktop-sized window."""
    driver = browsers.portuguese_chromium()
    yield driver
    driver.quit()
