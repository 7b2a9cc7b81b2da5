"""Clients as records over the API (docs/clients.md): create, read, update, list and search,
with the CPF or CNPJ checked (check digits), stored as digits and answered formatted, per
team and mode."""

import pytest

from agencies.models import Client
from agencies.tests.factories import ClientFactory
from tests.kit.factories import make_team

pytestmark = pytest.mark.django_db

CLIENTS = "/api/v1/clients"
ANA = {
    "full_name": "Ana Souza",
    "email": "ana.souza@example.com",
    "phone_number": "+5511987654321",
    "tax_id": "390.533.447-05",
    "postal_code": "01310-100",
    "street": "Avenida Paulista",
    "street_number": "1578",
    "complement": "Apto 42",
    "district": "Bela Vista",
    "city": "São Paulo",
    "state": "SP",
    "metadata": {"crm_id": "C-1029"},
}


def create(client, body=None, **headers):
    return client.post(CLIENTS, ANA if body is None else body, format="json", headers=headers)


def patch(client, client_id, body):
    return client.patch(f"{CLIENTS}/{client_id}", body, format="json")


def refused(response, status=400, code="invalid_request") -> dict:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code
    return error


def test_a_client_is_created_with_its_tax_id_stored_as_digits_and_shown_formatted(test_client):
    response = create(test_client)

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["success"] is True and body["_meta"]["test_mode"] is True
    data = body["data"]
    assert data["id"].startswith("cli_")
    assert {k: v for k, v in data.items() if k not in ("id", "created_at")} == {
        "live_mode": False,
        "full_name": "Ana Souza",
        "email": "ana.souza@example.com",
        "phone_number": "+5511987654321",
        "tax_id": "390.533.447-05",
        "tax_id_type": "cpf",
        "postal_code": "01310-100",
        "street": "Avenida Paulista",
        "street_number": "1578",
        "complement": "Apto 42",
        "district": "Bela Vista",
        "city": "São Paulo",
        "state": "SP",
        "country": "BR",
        "metadata": {"crm_id": "C-1029"},
    }
    stored = Client.objects.get(pk=data["id"])
    assert (stored.tax_id, stored.postal_code, stored.live_mode) == (
        "39053344705",
        "01310100",
        False,
    )
    assert stored.made_from_booking is False
    assert test_client.get(f"{CLIENTS}/{data['id']}").json()["data"] == data


def test_a_company_with_a_cnpj_and_nothing_else(test_client):
    body = {
        "full_name": "Viagens Ltda",
        "email": "Compras@Viagens.example",
        "tax_id": "11222333000181",
    }
    data = create(test_client, body).json()["data"]

    assert (data["tax_id"], data["tax_id_type"]) == ("11.222.333/0001-81", "cnpj")
    assert data["email"] == "compras@viagens.example"  # kept in lower case
    assert data["country"] == "BR" and data["metadata"] == {}
    assert data["phone_number"] is data["postal_code"] is data["state"] is None


@pytest.mark.parametrize(
    "tax_id",
    [
        "390.533.447-06",  # a wrong check digit
        "39053344706",
        "111.222.333-44",
        "11.222.333/0001-82",  # a CNPJ's wrong check digit
        "3905334470",  # 10 digits
        "390.533.447-0A",
        "12.ABC.345/01DE-35",  # alphanumeric CNPJs are not taken (the column holds digits)
        "٣٩٠٥٣٣٤٤٧٠٥",  # digits that are not ASCII
        39053344705,  # a number
    ],
)
def test_an_invalid_cpf_or_cnpj_is_refused_with_400_naming_the_field(test_client, tax_id):
    error = refused(create(test_client, {**ANA, "tax_id": tax_id}))

    assert error["message"] == "Invalid request parameters"
    assert error["details"] == {
        "tax_id": [
            "Not a valid CPF or CNPJ: 11 digits (123.456.789-09) or 14 (12.345.678/0001-95), "
            "with or without the punctuation, with valid check digits."
        ]
    }
    assert not Client.objects.exists()


def test_an_update_to_an_invalid_cpf_is_refused_and_changes_nothing(test_client):
    data = create(test_client).json()["data"]

    error = refused(patch(test_client, data["id"], {"tax_id": "390.533.447-06", "city": "Rio"}))

    assert list(error["details"]) == ["tax_id"]
    stored = Client.objects.get(pk=data["id"])
    assert (stored.tax_id, stored.city) == ("39053344705", "São Paulo")


@pytest.mark.parametrize(
    "change, field",
    [
        ({"full_name": None}, "full_name"),
        ({"full_name": "   "}, "full_name"),
        ({"full_name": "Ana\nSouza"}, "full_name"),
        ({"full_name": "A" * 256}, "full_name"),
        ({"email": "ana"}, "email"),
        ({"email": "x" * 250 + "@a.com"}, "email"),
        ({"phone_number": "11 98765-4321"}, "phone_number"),
        ({"phone_number": 5511987654321}, "phone_number"),
        ({"postal_code": "0131-0100"}, "postal_code"),
        ({"state": "São Paulo"}, "state"),
        ({"country": "Brasil"}, "country"),
        ({"street": "R" * 121}, "street"),
        ({"city": 7}, "city"),
        ({"metadata": {f"k{i}": "v" for i in range(51)}}, "metadata"),
        ({"metadata": {"k" * 41: "v"}}, "metadata"),
        ({"metadata": {"note": 1}}, "metadata.note"),
        ({"metadata": "crm"}, "metadata"),
    ],
)
def test_each_field_is_checked_and_named(test_client, change, field):
    error = refused(create(test_client, {**ANA, **change}))

    assert list(error["details"]) == [field]
    assert not Client.objects.exists()


def test_name_and_email_are_required(test_client):
    assert list(refused(create(test_client, {"email": "a@example.com"}))["details"]) == [
        "full_name"
    ]
    assert list(refused(create(test_client, {"full_name": "Ana"}))["details"]) == ["email"]


def test_an_address_outside_brazil_is_taken_as_written(test_client):
    body = {**ANA, "country": "PT", "postal_code": "1000-001", "state": "Lisboa"}
    data = create(test_client, body).json()["data"]

    assert (data["country"], data["postal_code"], data["state"]) == ("PT", "1000-001", "Lisboa")


def test_a_uf_and_a_cep_are_kept_as_brazil_writes_them(test_client):
    data = create(test_client, {**ANA, "state": "rj", "postal_code": "20040002"}).json()["data"]

    assert (data["state"], data["postal_code"]) == ("RJ", "20040-002")


def test_e_mails_are_unique_per_team_and_mode(test_client, live_client):
    create(test_client)

    error = refused(
        create(test_client, {**ANA, "email": "ANA.souza@example.com"}), 409, "client_email_taken"
    )
    assert error["message"] == "A client with this e-mail already exists"
    assert create(live_client).status_code == 201  # the other mode has its own clients
    other = create(test_client, {**ANA, "email": "other@example.com"}).json()["data"]
    refused(patch(test_client, other["id"], {"email": ANA["email"]}), 409, "client_email_taken")
    assert Client.objects.get(pk=other["id"]).email == "other@example.com"


def test_an_update_changes_only_what_it_names_and_null_clears(test_client):
    data = create(test_client).json()["data"]

    response = patch(
        test_client, data["id"], {"phone_number": None, "complement": "", "city": " Campinas "}
    )

    assert response.status_code == 200, response.content
    updated = response.json()["data"]
    assert updated == {
        **data,
        "phone_number": None,
        "complement": None,
        "city": "Campinas",
    }
    assert patch(test_client, data["id"], {"tax_id": None}).json()["data"]["tax_id"] is None
    assert Client.objects.get(pk=data["id"]).tax_id == ""


def test_metadata_is_merged_as_stripe_merges_it(test_client):
    data = create(test_client, {**ANA, "metadata": {"crm_id": "C-1", "seller": "Bia"}}).json()

    merged = patch(
        test_client, data["data"]["id"], {"metadata": {"crm_id": "", "segment": "corporate"}}
    )
    assert merged.json()["data"]["metadata"] == {"seller": "Bia", "segment": "corporate"}
    cleared = patch(test_client, data["data"]["id"], {"metadata": None})
    assert cleared.json()["data"]["metadata"] == {}


def test_metadata_keeps_at_most_50_keys_after_the_merge(test_client):
    full = {f"k{i}": "v" for i in range(50)}
    data = create(test_client, {**ANA, "metadata": full}).json()["data"]

    error = refused(patch(test_client, data["id"], {"metadata": {"one_more": "v"}}))

    assert error["details"] == {"metadata": ["At most 50 keys."]}
    replaced = patch(test_client, data["id"], {"metadata": {"k0": "", "one_more": "v"}})
    assert len(replaced.json()["data"]["metadata"]) == 50


def test_a_new_country_checks_the_stored_address(test_client):
    body = {**ANA, "country": "PT", "postal_code": "1000-001", "state": "Lisboa"}
    data = create(test_client, body).json()["data"]

    error = refused(patch(test_client, data["id"], {"country": "BR"}))

    assert list(error["details"]) == ["postal_code"]
    moved = patch(
        test_client,
        data["id"],
        {"country": "BR", "postal_code": "01310-100", "state": "sp"},
    )
    assert moved.json()["data"]["state"] == "SP"


def test_clients_are_the_teams_and_modes_own(test_client, live_client):
    mine = create(test_client).json()["data"]
    elsewhere = ClientFactory(team=make_team("Other Travel").team, live_mode=False)

    for client_id in (elsewhere.id, "cli_unknown"):
        assert refused(test_client.get(f"{CLIENTS}/{client_id}"), 404, "client_not_found")[
            "message"
        ] == ("Client not found")
        refused(patch(test_client, client_id, {"city": "Rio"}), 404, "client_not_found")
    refused(live_client.get(f"{CLIENTS}/{mine['id']}"), 404, "client_not_found")
    assert live_client.get(CLIENTS).json()["data"] == []
    assert [c["id"] for c in test_client.get(CLIENTS).json()["data"]] == [mine["id"]]


def test_the_list_is_newest_first_and_paginated(test_client):
    ids = [
        create(test_client, {"full_name": f"C{i}", "email": f"c{i}@example.com"}).json()["data"][
            "id"
        ]
        for i in range(3)
    ]

    first = test_client.get(CLIENTS, {"limit": 2}).json()
    second = test_client.get(CLIENTS, {"limit": 2, "page": 2}).json()

    assert first["pagination"] == {
        "page": 1,
        "limit": 2,
        "total": 3,
        "pages": 2,
        "has_more": True,
    }
    assert [c["id"] for c in first["data"] + second["data"]] == ids[::-1]


@pytest.mark.parametrize(
    "q",
    [
        "joão",
        "JOAO",
        "joao da",
        "Silva",
        "JOAO@",
        "empresa.example",
        "390.533.447-05",
        "39053344705",
        "390.533",
        "447-05",
    ],
)
def test_the_search_finds_a_client_by_name_e_mail_or_tax_id(test_client, q):
    found = create(
        test_client,
        {"full_name": "João da Silva", "email": "joao@empresa.example", "tax_id": "39053344705"},
    ).json()["data"]
    create(
        test_client,
        {"full_name": "Maria Lima", "email": "maria@example.com", "tax_id": "11222333000181"},
    )

    listed = test_client.get(CLIENTS, {"q": q}).json()

    assert [c["id"] for c in listed["data"]] == [found["id"]], q
    assert listed["pagination"]["total"] == 1


def test_the_search_reads_digits_as_a_tax_id_only_when_written_as_one(test_client):
    create(
        test_client,
        {"full_name": "Maria Lima", "email": "maria@example.com", "tax_id": "11222333000181"},
    )

    assert test_client.get(CLIENTS, {"q": "11.222.333/0001-81"}).json()["pagination"]["total"] == 1
    assert test_client.get(CLIENTS, {"q": "Maria 1122"}).json()["pagination"]["total"] == 0


@pytest.mark.parametrize("query", [{"q": ""}, {"q": "x" * 101}, {"page": "0"}])
def test_a_bad_query_is_400(test_client, query):
    assert list(refused(test_client.get(CLIENTS, query))["details"]) == list(query)


def test_an_idempotency_key_creates_one_client(test_client):
    first = create(test_client, **{"Idempotency-Key": "client-1"})
    again = create(test_client, **{"Idempotency-Key": "client-1"})

    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["data"] == first.json()["data"]
    assert Client.objects.count() == 1


@pytest.mark.parametrize("body", [[], "x", 1])
def test_an_update_that_is_not_an_object_is_400(test_client, body):
    data = create(test_client).json()["data"]

    error = refused(test_client.patch(f"{CLIENTS}/{data['id']}", body, format="json"))

    assert error["details"] == {"body": ["Must be a JSON object."]}
