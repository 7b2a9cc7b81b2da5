"""The payment pages' lifetime and limits: served while the recharge can be paid (closed at once
when it is cancelled, an hour after payment or expiry), rate-limited per client address and per
recharge, and their token kept out of Referer headers and request logs."""

import io
import logging
from datetime import timedelta
from decimal import Decimal
from urllib.parse import urlparse

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client

from wallet.models import Recharge
from wallet.services import recharge_cancel, recharge_expire, recharge_fail
from wallet.services.recharges import recharge_create

pytestmark = pytest.mark.django_db


def new_recharge(team, method="pix") -> Recharge:
    return recharge_create(
        team=team, live_mode=True, amount=Decimal("250.00"), payment_method=method
    )


def page_urls(recharge: Recharge) -> list[str]:
    """The links handed to the payer (path and query, token included)."""
    from wallet.payloads import payment_instructions

    payment = payment_instructions(recharge)
    urls = [payment.get("pix_qrcode_url"), payment.get("boleto_url"), payment.get("boleto_pdf_url")]
    return [f"{urlparse(u).path}?{urlparse(u).query}" for u in urls if u]


def assert_closed(response, status: str):
    assert response.status_code == 410
    assert response.json() == {
        "success": False,
        "error": {
            "code": "payment_page_expired",
            "message": "Payment page expired",
            "details": {"status": [status]},
            "request_id": response["X-Request-Id"],
            "doc_url": "http://testserver/api/v1/docs/errors/payment_page_expired",
        },
    }


@pytest.mark.parametrize("method", ["pix", "boleto"])
def test_the_pages_close_at_once_when_the_recharge_is_cancelled(method, team, live_client):
    recharge = new_recharge(team, method)
    urls = page_urls(recharge)
    browser = Client()
    assert [browser.get(url).status_code for url in urls] == [200] * len(urls)

    recharge_cancel(recharge=recharge)

    for url in urls:
        assert_closed(browser.get(url), "cancelled")
        assert_closed(live_client.get(url.split("?")[0]), "cancelled")  # the owner's key too


def test_a_failed_recharge_shows_no_page(team):
    recharge = new_recharge(team)
    recharge_fail(recharge=recharge, reason="provider refused")
    (url,) = page_urls(recharge)
    assert_closed(Client().get(url), "failed")


def test_the_pages_stay_open_an_hour_after_payment(team):
    recharge = new_recharge(team, "boleto")
    urls = page_urls(recharge)
    call_command("simulate_payment", recharge.id, stdout=io.StringIO())
    paid_at = Recharge.objects.get(pk=recharge.pk).paid_at
    browser = Client()

    with time_machine.travel(paid_at + timedelta(minutes=59), tick=False):
        assert [browser.get(url).status_code for url in urls] == [200, 200]
    with time_machine.travel(paid_at + timedelta(minutes=61), tick=False):
        for url in urls:
            assert_closed(browser.get(url), "completed")


def test_the_pages_close_an_hour_after_expiry_swept_or_not(team):
    swept, unswept = new_recharge(team), new_recharge(team)
    expires_at = swept.expires_at
    recharge_expire(recharge=swept, now=expires_at + timedelta(seconds=1))
    browser = Client()

    with time_machine.travel(expires_at + timedelta(minutes=59), tick=False):
        assert browser.get(page_urls(swept)[0]).status_code == 200
        assert browser.get(page_urls(unswept)[0]).status_code == 200
    with time_machine.travel(expires_at + timedelta(minutes=61), tick=False):
        assert_closed(browser.get(page_urls(swept)[0]), "expired")
        assert_closed(browser.get(page_urls(unswept)[0]), "pending")


def test_a_wrong_token_is_still_not_found_whatever_the_status(team):
    recharge = new_recharge(team)
    recharge_cancel(recharge=recharge)
    response = Client().get(f"/api/v1/pix/qr/{recharge.id}?token=wrong")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "recharge_not_found"


def assert_rate_limited(response):
    assert response.status_code == 429
    assert response.json() == {
        "success": False,
        "error": {
            "code": "rate_limited",
            "message": "Rate limit exceeded",
            "details": None,
            "request_id": response["X-Request-Id"],
            "doc_url": "http://testserver/api/v1/docs/errors/rate_limited",
        },
    }
    assert 1 <= int(response["Retry-After"]) <= 60


def test_the_pages_are_rate_limited_per_client_address(team, settings):
    settings.PAYMENT_PAGES_RATE_LIMIT_PER_ADDRESS = "3/minute"
    recharges = [new_recharge(team), new_recharge(team, "boleto"), new_recharge(team)]
    urls = [url for recharge in recharges for url in page_urls(recharge)]  # four pages
    browser = Client(REMOTE_ADDR="203.0.113.7")

    assert [browser.get(url).status_code for url in urls[:3]] == [200, 200, 200]
    assert_rate_limited(browser.get(urls[3]))
    assert_rate_limited(browser.get("/api/v1/pix/qr/rch_unknown"))  # unknown ids count too
    assert Client(REMOTE_ADDR="203.0.113.8").get(urls[3]).status_code == 200


def test_the_pages_are_rate_limited_per_recharge(team, settings):
    settings.PAYMENT_PAGES_RATE_LIMIT_PER_RECHARGE = "2/minute"
    busy, other = new_recharge(team), new_recharge(team)
    (busy_url,) = page_urls(busy)
    addresses = ["198.51.100.1", "198.51.100.2", "198.51.100.3"]

    statuses = [Client(REMOTE_ADDR=a).get(busy_url).status_code for a in addresses]

    assert statuses == [200, 200, 429]
    assert Client(REMOTE_ADDR="198.51.100.3").get(page_urls(other)[0]).status_code == 200


def test_wrong_tokens_do_not_use_up_the_payers_quota(team, settings):
    """The review's finding: 30 requests with a wrong token (404 each) used up the recharge's
    quota, and the payer's real link then got 429. Only requests allowed to open the recharge
    count for it now."""
    settings.PAYMENT_PAGES_RATE_LIMIT_PER_RECHARGE = "30/minute"
    recharge = new_recharge(team)
    (url,) = page_urls(recharge)
    wrong = f"/api/v1/pix/qr/{recharge.id}?token=wrong"

    statuses = {Client(REMOTE_ADDR=f"198.51.100.{n}").get(wrong).status_code for n in range(30)}

    assert statuses == {404}
    assert Client(REMOTE_ADDR="203.0.113.77").get(url).status_code == 200


def test_an_address_that_keeps_failing_waits(team, settings):
    """Failures (unknown ids, wrong tokens) count per client address on their own limit: over
    it, that address gets 429 even for a right link; other addresses are served."""
    settings.PAYMENT_PAGES_FAILURE_LIMIT_PER_ADDRESS = "5/minute"
    recharge = new_recharge(team)
    (url,) = page_urls(recharge)
    prober = Client(REMOTE_ADDR="203.0.113.90")

    statuses = [prober.get(f"/api/v1/pix/qr/rch_guess{n}").status_code for n in range(5)]

    assert statuses == [404] * 5
    assert_rate_limited(prober.get(url))
    assert Client(REMOTE_ADDR="203.0.113.91").get(url).status_code == 200
    # Successes do not count as failures: a payer reloading the page is never limited by them.
    payer = Client(REMOTE_ADDR="203.0.113.92")
    assert {payer.get(url).status_code for _ in range(8)} == {200}


def test_the_limit_resets_with_the_window(team, settings):
    settings.PAYMENT_PAGES_RATE_LIMIT_PER_ADDRESS = "1/minute"
    (url,) = page_urls(new_recharge(team))
    browser = Client()
    with time_machine.travel("2026-11-23 15:00:10Z", tick=False):
        assert browser.get(url).status_code == 200
        response = browser.get(url)
        assert_rate_limited(response)
        assert response["Retry-After"] == "50"
    with time_machine.travel("2026-11-23 15:01:00Z", tick=False):
        assert browser.get(url).status_code == 200


def test_behind_the_proxy_the_address_it_appended_is_limited(team, settings):
    """A client cannot escape its limit by sending its own X-Forwarded-For entries: the proxy
    appends the real address last."""
    settings.BEHIND_TLS_PROXY = True
    settings.PAYMENT_PAGES_RATE_LIMIT_PER_ADDRESS = "2/minute"
    (url,) = page_urls(new_recharge(team))
    proxy = Client(REMOTE_ADDR="10.0.0.2")

    forged = [f"1.1.1.{n}, 203.0.113.9" for n in range(3)]
    statuses = [proxy.get(url, HTTP_X_FORWARDED_FOR=f).status_code for f in forged]

    assert statuses == [200, 200, 429]
    assert proxy.get(url, HTTP_X_FORWARDED_FOR="203.0.113.10").status_code == 200


def test_the_token_leaves_no_trace_in_referers_caches_or_request_logs(team, caplog):
    recharge = new_recharge(team, "boleto")
    urls = page_urls(recharge)
    token = urls[0].split("token=")[1]
    browser = Client()
    for url in urls:
        response = browser.get(url)
        assert response["Referrer-Policy"] == "no-referrer"
        assert response["Cache-Control"] == "private, no-store"

    recharge_cancel(recharge=recharge)
    with caplog.at_level(logging.DEBUG):
        assert browser.get(urls[0]).status_code == 410
        assert browser.get(f"/api/v1/boleto/{recharge.id}?token={token[:-1]}x").status_code == 404
    assert "Gone: /api/v1/boleto/" in caplog.text  # Django logged the failures…
    assert token[:8] not in caplog.text and "token=" not in caplog.text  # …by path only
