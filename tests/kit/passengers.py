"""The lead passenger of the bookings the tests and the benchmarks make, as the API takes it."""


def passenger(pid: str, **fields) -> dict:
    """Ana Souza, an adult, for the offer's passenger `pid`; `fields` change or add to hers
    (`given_name="Bruno"`, `identity_documents=[...]`)."""
    return {
        "id": pid,
        "given_name": "Ana",
        "family_name": "Souza",
        "gender": "f",
        "title": "ms",
        "born_on": "1990-05-01",
        "email": "ana@example.com",
        "phone_number": "+5511987654321",
        **fields,
    }
