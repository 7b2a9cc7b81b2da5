import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from agencies.tests.factories import make_team


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # rate-limit windows must not leak between tests
    yield
    cache.clear()


@pytest.fixture
def team(db):
    return make_team("Alpha Travel")


@pytest.fixture
def other_team(db):
    return make_team("Beta Tours")


@pytest.fixture
def anon_client():
    return APIClient()


@pytest.fixture
def test_client(team):
    """An API client authenticated with the team's test (sandbox) key."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {team.test_key}")
    return client


@pytest.fixture
def live_client(team):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {team.live_key}")
    return client
