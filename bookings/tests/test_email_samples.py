"""docs/emails/ holds a sample of each e-mail as the code renders it (Portuguese, HTML and text):
this fails when an e-mail changed and its sample was not written again."""

from bookings.management.commands.email_samples import SAMPLES_DIR, samples


def test_the_email_samples_in_docs_are_up_to_date():
    expected = samples()
    assert sorted(p.name for p in SAMPLES_DIR.iterdir()) == sorted(expected)
    stale = [
        name
        for name, content in expected.items()
        if (SAMPLES_DIR / name).read_text(encoding="utf-8") != content
    ]
    assert not stale, (
        f"Stale samples {stale}: run DJANGO_SETTINGS_MODULE=config.settings.test "
        ".venv/bin/python manage.py email_samples"
    )


def test_the_samples_show_the_customers_price_and_never_the_airlines_fare():
    for name, content in samples().items():
        if name.startswith(("booking", "ticket", "payment")):
            assert "R$\N{NO-BREAK SPACE}3.459,85" in content, name
            assert "EUR" not in content and "558" not in content, name
