import pytest

from webhooks.tests.receiver import Receiver


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
