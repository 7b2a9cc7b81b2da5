"""Recharges created from the panel by an agency user, as the API creates them (the same
service, limits and idempotency): the form in Portuguese, its refusals, a form sent twice, the
recharge's page with the QR code or the boleto and their copy buttons, and, once paid, who
paid and the PIX's end-to-end id, as Asaas reports them when the payment is read back."""

import base64
import hashlib
import io
import json
import re
import shutil
import subprocess
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse

from agencies.tests.factories import SupportUserFactory
from api.idempotency import idempotency_claim
from tests.kit.panel import browser_for
from wallet.models import Recharge
from wallet.services import recharge_create
from wallet.services.recharges import recharge_create_once
from wallet.tests.asaas import (
    END_TO_END_ID,
    add_pix_charge,
    add_pix_transaction,
    add_read_back,
    event_body,
    notify,
    pending_recharge,
)
from webhooks.models import Event

pytestmark = pytest.mark.django_db

ADD = reverse("admin:wallet_recharge_add")
LIST = reverse("admin:wallet_recharge_changelist")
PDFTOTEXT = shutil.which("pdftotext") or "/usr/bin/pdftotext"


def change_url(recharge) -> str:
    return reverse("admin:wallet_recharge_change", args=[recharge.pk])


def form_token(browser, query: str = "") -> str:
    page = browser.get(ADD + query).content.decode()
    return re.search(r'name="token" value="([^"]+)"', page).group(1)


def create(browser, *, amount: str, method: str = "pix", mode: str = "live", token=None):
    token = token or form_token(browser)
    return browser.post(
        ADD, {"mode": mode, "payment_method": method, "amount": amount, "token": token}
    )


def text_of(response) -> str:
    return response.content.decode().replace("\N{NO-BREAK SPACE}", " ")


def test_the_form_asks_for_mode_method_and_amount_in_portuguese(team_owner):
    browser = browser_for(team_owner)

    page = text_of(browser.get(ADD))

    assert "Nova recarga" in page
    assert "Real: uma cobrança de verdade, paga com dinheiro de verdade" in page
    assert "Teste: uma cobrança do sandbox, sem valor" in page
    assert "De R$ 100,00 a R$ 50.000,00 por recarga, até R$ 100.000,00 por dia." in page
    assert re.search(r'value="live"[^>]*checked', page)
    assert re.search(r'value="pix"[^>]*checked', page)
    # From the test-data list, the form starts on test mode.
    test_form = browser.get(ADD + "?_changelist_filters=mode%3Dtest").content.decode()
    assert re.search(r'value="test"[^>]*checked', test_form)
    assert "Adicionar recarga" in text_of(browser.get(LIST))


def test_an_agency_user_creates_a_pix_recharge_and_sees_the_qr_code_to_pay_it(team_owner):
    browser = browser_for(team_owner)

    response = create(browser, amount="1.234,56")

    recharge = Recharge.objects.get()
    assert response.status_code == 302
    assert response["Location"] == change_url(recharge) + "?_changelist_filters=mode%3Dlive"
    assert (recharge.team, recharge.live_mode, recharge.amount) == (
        team_owner.team,
        True,
        Decimal("1234.56"),
    )
    assert recharge.status == "pending" and recharge.payment_method == "pix"
    assert recharge.pix_copy_paste.startswith("000201")
    # As the API's: the same pending event for the team's webhooks.
    assert Event.objects.filter(type="wallet.recharge.pending").count() == 1
    page = text_of(browser.get(response["Location"]))
    assert "Criada: Recarga PIX de R$ 1.234,56 · Pendente." in page
    assert "Como pagar" in page and "PIX copia e cola" in page
    assert recharge.pix_copy_paste in page
    assert page.count(recharge.pix_copy_paste) == 1  # in "how to pay" only, not again below
    assert "Linha digitável" not in page  # a PIX recharge shows no boleto fields
    assert 'data-copy="pix-copy-paste"' in page and "Copiar o código" in page
    assert 'data-copied="Copiado"' in page
    assert "(horário de Brasília)" in page
    assert '<script src="/static/wallet/copy.js"' in page
    image = re.search(r'id="pix-qr" src="data:image/png;base64,([^"]+)"', page).group(1)
    assert qr_text(base64.b64decode(image)) == recharge.pix_copy_paste


def qr_text(png: bytes) -> str:
    pyzbar = pytest.importorskip(
        "pyzbar.pyzbar", reason="needs libzbar0 (apt-get install libzbar0)"
    )
    from PIL import Image

    (decoded,) = pyzbar.decode(Image.open(io.BytesIO(png)))
    return decoded.data.decode()


def test_an_agency_user_creates_a_boleto_and_opens_its_pdf(team_owner):
    browser = browser_for(team_owner)

    response = create(browser, amount="250", method="boleto", mode="test")

    recharge = Recharge.objects.get()
    assert (recharge.live_mode, recharge.payment_method, recharge.amount) == (
        False,
        "boleto",
        Decimal("250.00"),
    )
    assert response["Location"].endswith("?_changelist_filters=mode%3Dtest")
    page = text_of(browser.get(response["Location"]))
    assert "Criada: Recarga Boleto de R$ 250,00 · Pendente." in page
    assert recharge.boleto_linha_digitavel in page
    assert 'data-copy="boleto-linha"' in page and "Copiar a linha digitável" in page
    assert "Modo de teste: esta cobrança não tem valor e não deve ser paga." in page
    pdf_url = re.search(r'id="boleto-pdf" href="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert "Abrir o boleto (PDF)" in page
    pdf = browser.get(pdf_url)
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = subprocess.run(  # noqa: S603 (a fixed program, a PDF we made)
        [PDFTOTEXT, "-layout", "-", "-"], input=pdf.content, capture_output=True, check=True
    ).stdout.decode()
    assert recharge.boleto_linha_digitavel in text
    assert "MODO DE TESTE" in text


@pytest.mark.parametrize(
    ("amount", "error"),
    [
        ("99,99", "O mínimo é R$ 100,00."),
        ("50.000,01", "O máximo é R$ 50.000,00 por recarga."),
        ("cem reais", "Informe um número como 1234,56."),
        ("", "Este campo é obrigatório."),
    ],
)
def test_an_amount_outside_the_limits_is_refused_and_nothing_is_created(team_owner, amount, error):
    browser = browser_for(team_owner)

    response = create(browser, amount=amount)

    assert response.status_code == 200
    assert error in text_of(response)
    assert not Recharge.objects.exists()


def test_the_daily_limit_is_the_apis(team_owner):
    for _ in range(2):
        recharge_create(
            team=team_owner.team, live_mode=True, amount=Decimal("50000.00"), payment_method="pix"
        )
    browser = browser_for(team_owner)

    response = create(browser, amount="100,00")

    assert "Limite diário excedido: R$ 100.000,00 já recarregados hoje neste modo" in text_of(
        response
    )
    assert Recharge.objects.count() == 2
    # Test mode has its own limit.
    assert create(browser, amount="100,00", mode="test").status_code == 302


def test_a_form_sent_twice_creates_one_recharge(team_owner):
    browser = browser_for(team_owner)
    token = form_token(browser)

    first = create(browser, amount="300,00", token=token)
    assert "Criada: " in text_of(browser.get(first["Location"]))
    second = create(browser, amount="300,00", token=token)

    recharge = Recharge.objects.get()
    assert (
        first["Location"]
        == second["Location"]
        == (change_url(recharge) + "?_changelist_filters=mode%3Dlive")
    )
    assert "Criada: " not in text_of(browser.get(second["Location"]))  # shown, not created
    # The same token with another amount (the back button, then an edit): refused, and the
    # form comes back with a new token that creates the new one.
    refused = create(browser, amount="400,00", token=token)
    assert "Este formulário já criou uma recarga." in text_of(refused)
    new_token = re.search(r'name="token" value="([^"]+)"', refused.content.decode()).group(1)
    assert new_token != token
    assert Recharge.objects.count() == 1
    create(browser, amount="400,00", token=new_token)
    assert sorted(Recharge.objects.values_list("amount", flat=True)) == [
        Decimal("300.00"),
        Decimal("400.00"),
    ]


def test_a_form_sent_again_while_the_first_is_at_the_provider_waits_for_it(team_owner):
    team = team_owner.team
    token = "form-token-in-flight"
    # The first POST has claimed its token and is still waiting on the provider.
    idempotency_claim(
        team=team,
        live_mode=True,
        key=f"panel-recharge:{token}",
        fingerprint=hashlib.sha256(b"300.00 pix").hexdigest(),
    )
    browser = browser_for(team_owner)

    response = create(browser, amount="300,00", token=token)

    assert response.status_code == 302 and response["Location"] == LIST + "?mode=live"
    assert "Esta recarga ainda está sendo criada" in text_of(browser.get(response["Location"]))
    assert not Recharge.objects.exists()


def test_a_provider_failure_is_said_and_the_form_can_be_sent_again(team_owner, asaas):
    from wallet.tests.asaas import BASE_URL, add_existing_customer

    add_existing_customer(asaas, team_owner.team)
    asaas.post(f"{BASE_URL}/payments", status=503)
    browser = browser_for(team_owner)
    token = form_token(browser)

    refused = create(browser, amount="300,00", token=token)

    assert "O provedor de pagamentos está indisponível; tente de novo mais tarde" in text_of(
        refused
    )
    assert Recharge.objects.get().status == "failed"  # kept, as the API keeps it
    add_pix_charge(asaas, team_owner.team)
    again = create(browser, amount="300,00", token=token)
    assert again.status_code == 302
    assert Recharge.objects.filter(status="pending").count() == 1


def test_support_does_not_recharge_for_agencies(team):
    browser = browser_for(SupportUserFactory())

    assert browser.get(ADD).status_code == 403
    assert (
        browser.post(
            ADD, {"mode": "live", "payment_method": "pix", "amount": "300", "token": "t"}
        ).status_code
        == 403
    )
    assert "Adicionar recarga" not in text_of(browser.get(LIST))
    assert not Recharge.objects.exists()


def test_a_panel_user_without_a_team_cannot_recharge(django_user_model):
    user = django_user_model.objects.create_user(
        username="nobody", email="nobody@example.com", password="x", is_staff=True
    )

    response = browser_for(user).get(ADD)

    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")


def test_the_page_of_a_paid_pix_shows_the_payer_and_the_end_to_end_id(
    asaas, team, team_owner, client
):
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge, pix_transaction="35363f6e-93e2-11ec-b9d9-96f4053b1bd4")
    add_pix_transaction(asaas, recharge, payer_tax_id="390.533.447-05")

    notify(client, event_body(recharge))

    recharge.refresh_from_db()
    assert recharge.status == "completed"
    assert (recharge.payer_name, recharge.payer_tax_id, recharge.pix_end_to_end_id) == (
        "Maria Souza",
        "390.533.447-05",
        END_TO_END_ID,
    )
    page = text_of(browser_for(team_owner).get(change_url(recharge)))
    assert "Maria Souza · ***.533.447-**" in page  # the CPF masked, as PIX receipts show it
    assert "390.533.447-05" not in page
    assert "Id fim a fim do PIX" in page and END_TO_END_ID in page
    assert "Como pagar" not in page  # paid: nothing left to pay


def test_a_payer_asaas_cannot_tell_leaves_the_credit_as_it_is(asaas, team, client):
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge, pix_transaction="35363f6e-93e2-11ec-b9d9-96f4053b1bd4")
    add_pix_transaction(asaas, recharge, status=503)

    notify(client, event_body(recharge))

    recharge.refresh_from_db()
    assert recharge.status == "completed" and recharge.transaction is not None
    assert (recharge.payer_name, recharge.pix_end_to_end_id) == ("", "")


def test_the_pix_of_another_payment_is_not_taken_for_the_payer(asaas, team, client):
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge, pix_transaction="35363f6e-93e2-11ec-b9d9-96f4053b1bd4")
    other = Recharge(provider_charge_id="pay_999999999999", amount=recharge.amount)
    add_pix_transaction(asaas, other)

    notify(client, event_body(recharge))

    recharge.refresh_from_db()
    assert recharge.status == "completed"
    assert (recharge.payer_name, recharge.pix_end_to_end_id) == ("", "")


def test_a_notification_that_claims_a_payer_is_not_believed(asaas, team, client):
    """Only the read back says who paid: a payer in the notification's body is not read."""
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge)  # Asaas names no PIX transaction
    body = json.loads(event_body(recharge))
    body["payment"]["pixTransaction"] = "35363f6e-93e2-11ec-b9d9-96f4053b1bd4"
    body["payment"]["payer"] = {"name": "Someone Else", "cpfCnpj": "11144477735"}

    notify(client, json.dumps(body))

    recharge.refresh_from_db()
    assert recharge.status == "completed"
    assert (recharge.payer_name, recharge.payer_tax_id) == ("", "")


def test_a_boleto_page_shows_no_end_to_end_id(team_owner):
    recharge, created = recharge_create_once(
        team=team_owner.team,
        live_mode=True,
        amount=Decimal("150.00"),
        payment_method="boleto",
        key="k",
    )

    page = text_of(browser_for(team_owner).get(change_url(recharge)))

    assert created and "Pagador" in page
    assert "Id fim a fim do PIX" not in page


def test_a_recharge_made_in_the_panel_and_paid_at_asaas_shows_who_paid(
    settings, team_owner, client
):
    """End to end against the Asaas-shaped server (real HTTP): the charge created from the
    panel, paid by PIX, Asaas's event delivered, the payment and its PIX read back."""
    from wallet.tests.asaas import API_KEY, WEBHOOK_TOKEN
    from wallet.tests.fake_asaas import FakeAsaas, dumps

    with FakeAsaas(api_key=API_KEY, webhook_token=WEBHOOK_TOKEN) as fake:
        settings.PAYMENT_PROVIDER = "asaas"
        settings.ASAAS_API_KEY = API_KEY
        settings.ASAAS_WEBHOOK_TOKEN = WEBHOOK_TOKEN
        settings.ASAAS_BASE_URL = fake.base_url
        team_owner.team.tax_id = "11222333000181"
        team_owner.team.save(update_fields=["tax_id"])
        browser = browser_for(team_owner)
        create(browser, amount="500,00")
        recharge = Recharge.objects.get()
        assert recharge.provider == "asaas" and recharge.status == "pending"

        fake.state.pay(recharge.provider_charge_id, payer_name="João Pereira")
        for event in fake.state.undelivered():
            notify(client, dumps(event))

    recharge.refresh_from_db()
    assert recharge.status == "completed"
    assert recharge.payer_name == "João Pereira" and recharge.payer_tax_id == "***.533.447-**"
    assert re.fullmatch(r"E18236120\d{12}[0-9a-f]{11}", recharge.pix_end_to_end_id)
    page = text_of(browser.get(change_url(recharge)))
    assert "João Pereira · ***.533.447-**" in page
    assert recharge.pix_end_to_end_id in page


def test_how_to_pay_is_shown_only_while_the_charge_can_be_paid(team_owner):
    recharge = recharge_create(
        team=team_owner.team, live_mode=True, amount=Decimal("300.00"), payment_method="pix"
    )
    browser = browser_for(team_owner)
    assert "Como pagar" in text_of(browser.get(change_url(recharge)))

    # A moment before the provider answers: pending, no code yet.
    Recharge.objects.filter(pk=recharge.pk).update(pix_copy_paste="")
    page = browser.get(change_url(recharge))
    assert page.status_code == 200 and "Como pagar" not in text_of(page)

    # Past its expiry, not yet swept by the expiry job: as good as expired.
    Recharge.objects.filter(pk=recharge.pk).update(
        pix_copy_paste=recharge.pix_copy_paste,
        expires_at=recharge.created_at - timedelta(hours=2),
    )
    assert "Como pagar" not in text_of(browser.get(change_url(recharge)))
