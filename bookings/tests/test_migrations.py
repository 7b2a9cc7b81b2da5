"""The migration that encrypts identity documents at rest rewrites the rows already stored."""

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from bookings.models import BookingPassenger
from bookings.tests.helpers import book, holdable
from core.json_fields import is_encrypted
from tests.kit.passengers import passenger

ENCRYPTING = ("bookings", "0006_passenger_data_at_rest")
PASSPORT = {"type": "passport", "unique_identifier": "FX123456", "issuing_country_code": "BR"}


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])


def stored_documents() -> list:
    """The column as stored: text (JSON or a Fernet token); PostgreSQL's jsonb as text too."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT identity_documents FROM bookings_bookingpassenger ORDER BY id")
        return [v if isinstance(v, str) else json.dumps(v) for (v,) in cursor.fetchall()]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("live_sandbox")  # live keys book the sandbox here
def test_existing_identity_documents_are_encrypted_and_decrypted_back(team_keys):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}")
    offer = holdable(client, destination="LIS")
    documents = [{**PASSPORT, "expires_on": "2030-01-01"}]
    people = [passenger(offer["passengers"][0]["id"], identity_documents=documents)]
    assert book(client, offer, people=people).status_code == 201
    (before,) = MigrationExecutor(connection).loader.graph.node_map[ENCRYPTING].parents
    try:
        migrate(before.key)  # the clear-text schema: the row's documents as plain JSON
        (plain,) = stored_documents()
        assert not is_encrypted(plain) and json.loads(plain) == documents

        migrate(ENCRYPTING)
        (encrypted,) = stored_documents()
        assert is_encrypted(encrypted) and "FX123456" not in encrypted
        assert BookingPassenger.objects.get().identity_documents == documents

        migrate(before.key)  # and back: plain JSON again
        assert json.loads(stored_documents()[0]) == documents
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes("bookings")[0])
    assert BookingPassenger.objects.get().identity_documents == documents
