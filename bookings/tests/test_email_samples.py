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
    agencys_own = ("booking_failed.txt", "booking_failed.html", "ticket_issued_agency_copy")
    for name, content in samples().items():
        if name.startswith(("booking", "ticket", "payment")):
            assert "R$\N{NO-BREAK SPACE}3.459,85" in content, name
            if name.startswith(agencys_own):  # the agency's own e-mail shows what it paid
                assert "€\N{NO-BREAK SPACE}558,04" in content and "3.259,60" in content, name
            else:
                assert "EUR" not in content and "558" not in content, name
                assert "3.259,60" not in content and "175,25" not in content, name


def test_each_sample_labels_an_instant_once_and_always_the_same_way():
    """An instant (a deadline, a deactivation, a link's expiry) is São Paulo time labelled
    "(horário de Brasília)", once; flight times are the airports' own, said once per e-mail."""
    others = ("São Paulo time", "horário de São Paulo", "Brasília time", "UTC", "BRT", "-03")
    for name, content in samples().items():
        for label in others:
            assert label not in content, (name, label)
        for line in content.splitlines():
            assert line.count("(horário de") <= 1, (name, line)
            assert "(horário de" not in line or "(horário de Brasília)" in line, (name, line)
        assert content.count("Os horários são os locais de cada aeroporto") <= 1, name
    samples_ = samples()
    assert (
        "O link expira em 18 de janeiro de 2027, 12:00 (horário de Brasília)."
        in (samples_["invitation.txt"])
    )
