from webhooks.models import WebhookEndpoint

SECRET = "whsec_test_secret_for_signatures"


def make_endpoint(team, url: str, *, events=("wallet.credit",), live_mode=True, **fields):
    """An endpoint as the API registers it (the probe is the API's business, tested there)."""
    return WebhookEndpoint.objects.create(
        team=team, live_mode=live_mode, url=url, events=list(events), secret=SECRET, **fields
    )
