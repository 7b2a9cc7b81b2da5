"""Attempt errors are stored in English; the panel shows the known ones in the reader's
language (the portal's health box, attempt log and test answer)."""

import pytest
from django.utils import translation

from webhooks.display import attempt_error_for_people


@pytest.mark.parametrize(
    "stored, portuguese",
    [
        ("No answer within 10 s", "Sem resposta em 10 s"),
        ("Connection failed: ConnectionError", "Falha na conexão: ConnectionError"),
        ("HTTP 302: redirects are not followed", "HTTP 302: redirecionamentos não são seguidos"),
        (
            "TLS error: the certificate could not be verified",
            "Erro de TLS: o certificado não pôde ser verificado",
        ),
        (
            "Refused: the URL resolves to a private or reserved address",
            "Recusado: a URL aponta para um endereço privado ou reservado",
        ),
        ("HTTP 500", "HTTP 500"),  # nothing to translate
    ],
)
def test_known_attempt_errors_are_shown_in_portuguese(stored, portuguese):
    with translation.override("pt-br"):
        assert attempt_error_for_people(stored) == portuguese
    with translation.override("en"):
        assert attempt_error_for_people(stored) == stored
