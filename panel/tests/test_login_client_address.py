"""The address django-axes locks out is the API rate limits' one: X-Forwarded-For only behind
our TLS proxy, and then only the entry the proxy appended."""

from axes.helpers import get_client_ip_address
from django.test import RequestFactory


def request(forwarded=None):
    extra = {"REMOTE_ADDR": "10.0.0.5"}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().post("/admin/login/", **extra)


def test_without_the_proxy_the_header_is_ignored(settings):
    settings.BEHIND_TLS_PROXY = False
    # A client sending its own X-Forwarded-For cannot pick a fresh address per attempt.
    assert get_client_ip_address(request(forwarded="198.51.100.1")) == "10.0.0.5"


def test_behind_the_proxy_the_address_it_appended_counts(settings):
    settings.BEHIND_TLS_PROXY = True
    # The client wrote "198.51.100.1"; our proxy appended the real peer, 203.0.113.7.
    assert get_client_ip_address(request(forwarded="198.51.100.1, 203.0.113.7")) == "203.0.113.7"
