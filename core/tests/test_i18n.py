"""People read Portuguese and São Paulo time; the committed translations match their source.
(The API stays the spec's English and UTC: api/tests/test_not_localized.py.)"""

import gettext
import io
from pathlib import Path

import pytest
from babel.messages.checkers import python_format
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.conf import settings
from django.test import Client as BrowserClient
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db

PO = Path(settings.BASE_DIR) / "locale" / "pt_BR" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
PORTUGUESE = {"HTTP_ACCEPT_LANGUAGE": "pt-BR,pt;q=0.9"}


def read_catalog():
    with PO.open("rb") as source:
        return read_po(source, locale="pt_BR")


def test_every_string_is_translated_with_the_same_placeholders():
    catalog = read_catalog()
    untranslated = [m.id for m in catalog if m.id and (not m.string or m.fuzzy)]
    assert untranslated == []
    for message in catalog:
        if message.id and message.python_format:
            python_format(catalog, message)  # raises on a missing or extra %(name)s


def test_the_committed_mo_is_compiled_from_the_po():
    """bin/serve needs no gettext tools: the .mo is committed, so it must be up to date."""
    compiled = io.BytesIO()
    write_mo(compiled, read_catalog())
    expected = gettext.GNUTranslations(io.BytesIO(compiled.getvalue()))
    with MO.open("rb") as committed_file:
        committed = gettext.GNUTranslations(committed_file)
    # Every translation, compared whole (the header differs by tool, not by content).
    messages = {k: v for k, v in committed._catalog.items() if k != ""}
    assert messages == {k: v for k, v in expected._catalog.items() if k != ""}
    assert len(messages) > 250


def test_the_po_file_is_the_one_source_of_the_translations():
    """Translations are written in django.po itself (bin/translations keeps them): no second
    copy of the texts, as Python or otherwise, that the catalog could drift from."""
    sources = [
        path.relative_to(settings.BASE_DIR).as_posix()
        for path in (Path(settings.BASE_DIR) / "locale").rglob("*")
        if path.is_file() and path not in (PO, MO)
    ]
    assert sources == []


def test_django_uses_our_catalog_and_its_own_for_the_rest():
    with translation.override("pt-br"):
        assert translation.gettext("Live data") == "Dados reais"  # ours
        assert translation.gettext("Log in") == "Acessar"  # Django's own pt_BR
    with translation.override("en"):
        assert translation.gettext("Live data") == "Live data"


def test_the_panel_is_portuguese_by_default_and_english_on_request(team_owner):
    anonymous = BrowserClient()
    page = anonymous.get(reverse("admin:login")).content.decode()
    assert '<html lang="pt-br"' in page and "Painel da agência" in page
    english = BrowserClient(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert '<html lang="en"' in english.get(reverse("admin:login")).content.decode()
    # The user's own choice (the language switch) beats the browser.
    chooser = BrowserClient(**PORTUGUESE)
    chooser.force_login(team_owner)
    switched = chooser.post(reverse("set_language"), {"language": "en", "next": "/admin/"})
    assert switched.status_code == 302
    page = chooser.get(reverse("admin:index")).content.decode()
    assert '<html lang="en"' in page and "API keys" in page


def test_boleto_page_is_portuguese_by_default_and_english_on_request(team, live_client):
    created = live_client.post(
        "/api/v1/wallet/recharge",
        {"amount": "1234.56", "currency": "BRL", "payment_method": "boleto"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    ).json()["data"]
    path = created["payment"]["boleto_url"].split("testserver", 1)[1]
    page = BrowserClient().get(path)
    html = page.content.decode()
    assert '<html lang="pt-br">' in html and "Vencimento" in html
    assert "R$\N{NO-BREAK SPACE}1.234,56" in html and "(horário de Brasília)" in html
    assert page["Content-Language"] == "pt-br"
    english = BrowserClient(HTTP_ACCEPT_LANGUAGE="en").get(path).content.decode()
    assert '<html lang="en">' in english and "Due date" in english
    assert "R$\N{NO-BREAK SPACE}1,234.56" in english and "(Brasília time)" in english
