"""Pricing typed in the panel is read in the user's language, strictly: "25,50" is R$ 25,50 in
Portuguese, and anything that could be read two ways is a form error that changes nothing."""

from decimal import Decimal

import pytest
from django.test import Client as BrowserClient
from django.urls import reverse

pytestmark = pytest.mark.django_db


def post_pricing(user, *, markup, fee, language="pt-br"):
    browser = BrowserClient(headers={"accept-language": language})
    browser.force_login(user)
    return browser.post(
        reverse("admin:agencies_team_change", args=[user.team.pk]),
        {
            "name": user.team.name,
            "tax_id": "12.345.678/0001-95",
            "markup_percent": markup,
            "fee": fee,
            "notification_email": "ops@alpha.example",
            # As after the confirmation page (tested in test_panel.py and test_panel_audit.py).
            "_pricing": "confirmed",
        },
    )


@pytest.mark.parametrize(
    ("language", "markup", "fee", "stored_markup", "stored_fee"),
    [
        ("pt-br", "8,5", "25,50", "8.50", "25.50"),
        ("pt-br", "10", "1.234,56", "10.00", "1234.56"),
        ("pt-br", " 0,75 % ", "R$ 1234,5", "0.75", "1234.50"),
        ("en", "8.5", "25.50", "8.50", "25.50"),
        ("en", "10", "1,234.56", "10.00", "1234.56"),
    ],
)
def test_pricing_is_read_in_the_users_language(
    team, team_owner, language, markup, fee, stored_markup, stored_fee
):
    response = post_pricing(team_owner, markup=markup, fee=fee, language=language)
    assert response.status_code == 302, response.content.decode()[:2000]
    team.refresh_from_db()
    assert team.markup_percent == Decimal(stored_markup)
    assert team.fee.amount == Decimal(stored_fee)


@pytest.mark.parametrize(
    ("language", "markup", "fee", "field", "message"),
    [
        # The English decimal point in a Portuguese form is not silently a thousands separator.
        ("pt-br", "8,5", "25.50", "fee", "Use , para separar os centavos"),
        ("pt-br", "8.5", "25,50", "markup_percent", "Use , para separar os centavos"),
        # A thousand, or one point two three four? Neither: ask.
        ("pt-br", "8,5", "1.234", "fee", "é ambíguo"),
        ("pt-br", "8,5", "12,345", "fee", "no máximo 2 casas"),
        ("pt-br", "8,5", "-5,00", "fee", "Informe um número como"),
        ("pt-br", "8,5", "1.23,45", "fee", "Informe um número como"),
        ("pt-br", "100,01", "25,50", "markup_percent", "no máximo 100,00"),
        ("en", "8.5", "25,50", "fee", "Use . for the decimal part"),
        ("en", "8.5", "1,234", "fee", "is ambiguous"),
    ],
)
def test_ambiguous_or_invalid_pricing_is_a_form_error_and_changes_nothing(
    team, team_owner, language, markup, fee, field, message
):
    before = (team.markup_percent, team.fee.amount)
    response = post_pricing(team_owner, markup=markup, fee=fee, language=language)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert list(errors) == [field]
    assert message in response.content.decode()  # the page, as rendered in its language
    team.refresh_from_db()
    assert (team.markup_percent, team.fee.amount) == before


def test_the_pricing_inputs_are_text_with_a_decimal_keypad_and_show_the_users_format(
    team, team_owner
):
    team.fee = Decimal("1234.50")
    team.markup_percent = Decimal("8.50")
    team.save()
    browser = BrowserClient(headers={"accept-language": "pt-br"})
    browser.force_login(team_owner)
    page = browser.get(reverse("admin:agencies_team_change", args=[team.pk]))
    form = page.context["adminform"].form
    for name, shown in (("fee", "1234,50"), ("markup_percent", "8,50")):
        html = str(form[name])
        assert 'type="text"' in html and 'inputmode="decimal"' in html, html
        assert f'value="{shown}"' in html
    assert 'type="number"' not in page.content.decode()


# --- The FX margin (docs/decisions.md "Exchange rates") -----------------------------------------


def post_fx_margin(user, margin: str, *, confirmed: bool, language: str = "pt-br"):
    browser = BrowserClient(headers={"accept-language": language})
    browser.force_login(user)
    team = user.team
    posted = {
        "name": team.name,
        "tax_id": team.tax_id,
        "markup_percent": "10,00" if language == "pt-br" else "10.00",
        "fee": "0",
        "fx_margin_percent": margin,
        "notification_email": team.notification_email,
    }
    if confirmed:
        posted["_pricing"] = "confirmed"
    return browser.post(reverse("admin:agencies_team_change", args=[team.pk]), posted)


def test_a_teams_fx_margin_is_confirmed_with_its_effect_then_saved_and_audited(
    team, team_owner, settings
):
    from core.models import AuditEntry

    settings.FX_MARGIN_PERCENT = Decimal("1.00")
    team.markup_percent = Decimal("10.00")
    team.save()

    confirmation = post_fx_margin(team_owner, "2,5", confirmed=False)

    assert confirmation.status_code == 200
    assert "admin/agencies/team/confirm_pricing.html" in [t.name for t in confirmation.templates]
    page = confirmation.content.decode()
    assert "Custo de câmbio das tarifas em outra moeda" in page
    assert "1,00\N{NO-BREAK SPACE}% (o padrão)" in page and "2,50\N{NO-BREAK SPACE}%" in page
    # A foreign fare worth R$ 1.000,00 at the reference rate: 1.010,00 + 10 % now,
    # 1.025,00 + 10 % after.
    assert "R$\N{NO-BREAK SPACE}1.111,00" in page and "R$\N{NO-BREAK SPACE}1.127,50" in page
    team.refresh_from_db()
    assert team.fx_margin_percent is None  # nothing saved before "yes"

    saved = post_fx_margin(team_owner, "2,5", confirmed=True)

    assert saved.status_code == 302, saved.content.decode()[:2000]
    team.refresh_from_db()
    assert team.fx_margin_percent == Decimal("2.50")
    entry = AuditEntry.objects.order_by("-pk").first()
    assert entry.additional_data["action"] == "pricing_change"
    assert entry.changes["fx_margin_percent"] == ["None", "2.50"]
    assert "2,50" in entry.additional_data["summary"]
    assert "1,00\N{NO-BREAK SPACE}% (o padrão)" in entry.additional_data["summary"]


def test_an_empty_fx_margin_goes_back_to_the_default(team, team_owner):
    team.markup_percent, team.fx_margin_percent = Decimal("10.00"), Decimal("3.00")
    team.save()
    page = BrowserClient(headers={"accept-language": "pt-br"})
    page.force_login(team_owner)
    form = page.get(reverse("admin:agencies_team_change", args=[team.pk])).context["adminform"]
    assert 'value="3,00"' in str(form.form["fx_margin_percent"])

    assert post_fx_margin(team_owner, "", confirmed=False).status_code == 200  # a change
    assert post_fx_margin(team_owner, "", confirmed=True).status_code == 302

    team.refresh_from_db()
    assert team.fx_margin_percent is None


def test_the_same_fx_margin_needs_no_confirmation(team, team_owner):
    team.markup_percent, team.fx_margin_percent = Decimal("10.00"), Decimal("3.00")
    team.save()
    assert post_fx_margin(team_owner, "3,00", confirmed=False).status_code == 302


@pytest.mark.parametrize(
    ("language", "margin", "message"),
    [
        ("pt-br", "20,01", "no máximo 20,00"),
        ("pt-br", "2,555", "no máximo 2 casas"),
        ("pt-br", "-1", "Informe um número como"),
        ("pt-br", "2.5", "Use , para separar os centavos"),
        ("en", "25", "at most 20.00"),
    ],
)
def test_an_fx_margin_outside_0_to_20_or_with_3_decimals_is_a_form_error(
    team, team_owner, language, margin, message
):
    response = post_fx_margin(team_owner, margin, confirmed=True, language=language)
    assert response.status_code == 200
    assert list(response.context["adminform"].form.errors) == ["fx_margin_percent"]
    assert message in response.content.decode()
    team.refresh_from_db()
    assert team.fx_margin_percent is None


def confirmation_of(user, *, markup, fee):
    browser = BrowserClient(headers={"accept-language": "pt-br"})
    browser.force_login(user)
    return browser.post(
        reverse("admin:agencies_team_change", args=[user.team.pk]),
        {
            "name": user.team.name,
            "tax_id": "12.345.678/0001-95",
            "markup_percent": markup,
            "fee": fee,
            "notification_email": "ops@alpha.example",
        },
    )


@pytest.mark.parametrize(
    ("markup", "fee", "warnings"),
    [
        # A fee typed ten times over: from R$ 25,00 to R$ 250,00.
        ("8", "250", ["A taxa vai de R$\N{NO-BREAK SPACE}25,00 para R$\N{NO-BREAK SPACE}250,00"]),
        # A markup meant as 8,5 typed 85: far, and high.
        ("85", "25", ["A margem vai de 8,00\N{NO-BREAK SPACE}% para 85,00", "incomum"]),
        # A fee of R$ 2,50 meant as R$ 25,00: a tenth.
        ("8", "2,50", ["A taxa vai de R$\N{NO-BREAK SPACE}25,00 para R$\N{NO-BREAK SPACE}2,50"]),
        # Ordinary changes: no warning.
        ("9,5", "30", []),
    ],
)
def test_pricing_far_from_the_current_values_is_flagged_on_the_confirmation(
    team_owner, markup, fee, warnings
):
    team = team_owner.team
    team.markup_percent, team.fee = Decimal("8.00"), Decimal("25.00")
    team.save()

    page = confirmation_of(team_owner, markup=markup, fee=fee)

    assert page.status_code == 200
    html = page.content.decode()
    assert ('id="pricing-warnings"' in html) == bool(warnings)
    for warning in warnings:
        assert warning in html
    team.refresh_from_db()
    assert team.fee.amount == Decimal("25.00")  # nothing saved before "yes"
