"""The error reference an integrator acts on: every catalogued code says what to do and whether
the same request can succeed again, the suppliers' refusals share a remedy per group, and every
error body's `doc_url` opens the code's page."""

import re

import pytest
from django.test import Client as DjangoClient
from rest_framework.test import APIClient

from api.error_catalogue import is_supplier_refusal, load_error_catalogue, supplier_entries
from api.error_remedies import REMEDIES, SUPPLIER_GROUP_OF, SUPPLIER_GROUPS, Retry, remedy_for

pytestmark = pytest.mark.django_db


def test_every_catalogued_code_has_a_remedy():
    missing = sorted(
        f"{entry.code}:{entry.status}"
        for entry in load_error_catalogue().values()
        if remedy_for(entry.code, supplier=is_supplier_refusal(entry)) is None
    )
    assert missing == []


def test_no_remedy_for_a_code_that_is_not_catalogued():
    codes = {code for code, _ in load_error_catalogue()}
    assert sorted(set(REMEDIES) - codes) == []
    supplier_codes = {entry.code for entry in supplier_entries()}
    assert sorted(set(SUPPLIER_GROUP_OF) - supplier_codes) == []


def test_each_supplier_refusal_is_in_exactly_one_group():
    grouped = [code for group in SUPPLIER_GROUPS for code in group.codes]
    assert len(grouped) == len(set(grouped))
    assert sorted(grouped) == sorted(entry.code for entry in supplier_entries())


def test_a_code_of_ours_and_the_suppliers_refusal_of_that_code_have_their_own_remedies():
    # `offer_expired` is ours (400: book another offer) and a supplier's (502: its group's).
    ours = remedy_for("offer_expired", supplier=False)
    theirs = remedy_for("offer_expired", supplier=True)
    assert ours is REMEDIES["offer_expired"]
    assert theirs is SUPPLIER_GROUP_OF["offer_expired"].remedy


def test_an_errors_doc_url_opens_its_page_with_what_to_do():
    response = APIClient().get("/api/v1/wallet/balance")  # no key
    error = response.json()["error"]
    assert response.status_code == 401
    assert error["doc_url"] == "http://testserver/api/v1/docs/errors/unauthorized"

    page = DjangoClient().get(error["doc_url"].removeprefix("http://testserver"))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="unauthorized-401"' in html
    assert REMEDIES["unauthorized"].action.replace("<", "&lt;").replace(">", "&gt;") in html
    assert 'data-retry="no"' in html


def test_a_retryable_errors_page_says_so():
    html = DjangoClient().get("/api/v1/docs/errors/rate_limited").content.decode()
    assert REMEDIES["rate_limited"].retry is Retry.YES
    assert 'data-retry="yes"' in html


def test_a_code_with_two_statuses_shows_both_on_its_page():
    html = DjangoClient().get("/api/v1/docs/errors/offer_expired").content.decode()
    assert 'id="offer_expired-400"' in html
    assert 'id="offer_expired-502"' in html
    assert SUPPLIER_GROUP_OF["offer_expired"].title in html


def test_an_unknown_code_has_no_page():
    assert DjangoClient().get("/api/v1/docs/errors/no_such_code").status_code == 404


def test_the_index_lists_every_code_and_the_supplier_groups():
    html = DjangoClient().get("/api/v1/docs/errors").content.decode()
    listed = set(re.findall(r'<section id="([a-z_]+)-(\d{3})"', html))
    assert listed == {(code, str(status)) for code, status in load_error_catalogue()}
    for group in SUPPLIER_GROUPS:
        assert f'id="{group.slug}"' in html
