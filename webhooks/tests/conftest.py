import pytest

from webhooks import http


@pytest.fixture(autouse=True)
def _no_connection_kept_between_tests():
    """Each test starts without kept-alive connections (webhooks/http.py keeps them per
    process): what one test's receiver answered never decides another's connection."""
    http.close_connections()
    yield
    http.close_connections()
