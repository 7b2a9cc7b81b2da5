"""A payer's document as the panel shows it: a CPF masked as PIX receipts mask it, a CNPJ in
full, one the provider already masked as it came."""

import pytest

from core.tax_ids import tax_id_masked


@pytest.mark.parametrize(
    ("reported", "shown"),
    [
        ("39053344705", "***.533.447-**"),
        ("390.533.447-05", "***.533.447-**"),
        ("***.533.447-**", "***.533.447-**"),  # Asaas masks it already
        ("11222333000181", "11.222.333/0001-81"),  # a company's registration is public
        ("11.222.333/0001-81", "11.222.333/0001-81"),
        ("", ""),
        ("not a document", "not a document"),
    ],
)
def test_a_cpf_is_masked_and_a_cnpj_is_not(reported, shown):
    assert tax_id_masked(reported) == shown
