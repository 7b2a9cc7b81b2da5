"""The clients' pages in the panel: the tax id, phone, address and metadata shown and edited
with the API's rules (docs/clients.md), in Portuguese, and the list searched by name (accents
aside), e-mail and CPF/CNPJ with or without punctuation."""

import pytest
from django.urls import reverse

from agencies.models import Client
from agencies.tests.factories import ClientFactory
from tests.kit.panel import browser_for

pytestmark = pytest.mark.django_db

FORM = {
    "live_mode": "on",
    "full_name": "João da Silva",
    "email": "Joao@Empresa.example",
    "phone_number": "+55 (11) 98765-4321",
    "tax_id": "390.533.447-05",
    "postal_code": "01310-100",
    "street": "Avenida Paulista",
    "street_number": "1578",
    "complement": "Apto 42",
    "district": "Bela Vista",
    "city": "São Paulo",
    "state": "sp",
    "country": "BR",
    "metadata": '{"crm_id": "C-1029"}',
}


def test_an_agency_user_adds_a_client_with_a_formatted_cpf_stored_as_digits(team, team_owner):
    response = browser_for(team_owner).post(reverse("admin:agencies_client_add"), FORM)

    assert response.status_code == 302, response.context["adminform"].form.errors
    client = Client.objects.get(team=team)
    assert (client.tax_id, client.postal_code, client.state) == ("39053344705", "01310100", "SP")
    assert (client.email, client.phone_number) == ("joao@empresa.example", "+5511987654321")
    assert client.metadata == {"crm_id": "C-1029"} and client.made_from_booking is False


def test_the_change_page_shows_the_cpf_and_cep_formatted_in_portuguese(team, team_owner):
    client = ClientFactory(
        team=team, tax_id="39053344705", postal_code="01310100", metadata={"crm_id": "C-1"}
    )

    page = browser_for(team_owner).get(reverse("admin:agencies_client_change", args=[client.pk]))

    html = page.content.decode()
    assert 'value="390.533.447-05"' in html and 'value="01310-100"' in html
    for label in ("CPF ou CNPJ", "Endereço", "Logradouro", "Bairro", "Cidade", "Metadados"):
        assert label in html, label
    assert "&quot;crm_id&quot;: &quot;C-1&quot;" in html


@pytest.mark.parametrize(
    "change, field, message",
    [
        (
            {"tax_id": "390.533.447-06"},
            "tax_id",
            "CPF ou CNPJ inválido: confira os dígitos (11 num CPF, 14 num CNPJ).",
        ),
        ({"postal_code": "0131-0100"}, "postal_code", "CEP inválido: 8 dígitos"),
        ({"state": "São Paulo"}, "state", "Estado inválido: uma UF como SP ou RJ."),
        ({"phone_number": "98765-4321"}, "phone_number", "Use o código do país e o número"),
        ({"metadata": '{"crm_id": 1}'}, "metadata", "Escreva um objeto de no máximo 50 chaves"),
    ],
)
def test_an_invalid_value_is_a_form_error_in_portuguese(team, team_owner, change, field, message):
    response = browser_for(team_owner).post(
        reverse("admin:agencies_client_add"), {**FORM, **change}
    )

    assert response.status_code == 200
    assert list(response.context["adminform"].form.errors) == [field]
    assert message in response.content.decode()
    assert not Client.objects.exists()


def test_an_address_abroad_is_kept_as_written(team, team_owner):
    abroad = {**FORM, "country": "pt", "postal_code": "1000-001", "state": "Lisboa"}
    response = browser_for(team_owner).post(reverse("admin:agencies_client_add"), abroad)

    assert response.status_code == 302
    client = Client.objects.get(team=team)
    assert (client.country, client.postal_code, client.state) == ("PT", "1000-001", "Lisboa")


@pytest.mark.parametrize(
    "term", ["joao", "JOÃO DA", "empresa.example", "390.533.447-05", "39053344705", "447-05"]
)
def test_the_list_finds_a_client_by_name_e_mail_or_tax_id(team, team_owner, term):
    found = ClientFactory(
        team=team, full_name="João da Silva", email="joao@empresa.example", tax_id="39053344705"
    )
    ClientFactory(team=team, full_name="Maria Lima", tax_id="11222333000181")

    page = browser_for(team_owner).get(reverse("admin:agencies_client_changelist"), {"q": term})

    assert [c.pk for c in page.context["cl"].result_list] == [found.pk]
    assert "390.533.447-05" in page.content.decode()  # the list shows it formatted


def test_the_search_stays_within_the_team(team, team_owner, other_team):
    ClientFactory(team=other_team, full_name="João da Silva", tax_id="39053344705")

    page = browser_for(team_owner).get(reverse("admin:agencies_client_changelist"), {"q": "joao"})

    assert list(page.context["cl"].result_list) == []
