import pytest
import responses

from wallet.tests.asaas import API_KEY, BASE_URL, SUPPORT, WEBHOOK_TOKEN


@pytest.fixture
def asaas(settings):
    """Live mode uses Asaas; every HTTP call goes to this mock (an unregistered one fails).
    Register Asaas's answers with wallet/tests/asaas.py."""
    settings.PAYMENT_PROVIDER = "asaas"
    settings.ASAAS_API_KEY = API_KEY
    settings.ASAAS_WEBHOOK_TOKEN = WEBHOOK_TOKEN
    settings.ASAAS_BASE_URL = BASE_URL
    with responses.RequestsMock(assert_all_requests_are_fired=True) as rsps:
        yield rsps


@pytest.fixture
def support_alerts(settings):
    """Alerts about rejected payment notifications go to SUPPORT (wallet/tests/asaas.py)."""
    settings.SUPPORT_ALERT_EMAILS = [SUPPORT]
    return SUPPORT
