"""The team's payout PIX key: where its withdrawals are sent (docs/withdrawals.md). The same
rules for the panel's form and for anyone else: the team's CNPJ or CPF first; a key in the form
the PIX directory knows it; a CPF or CNPJ key must be the team's own document (a key of another
type is checked against the team's document when each transfer is made, with the holder the
payment provider reports)."""

import re
import uuid

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from agencies.models import Team
from wallet.models import PayoutKey, PixKeyType
from wallet.services.withdrawals import digits, valid_tax_id

PHONE_DIGITS = re.compile(r"[1-9][0-9]{9,10}")  # area code and number: 10 or 11 digits


def payout_key_normalize(*, team: Team, key_type: str, key: str) -> str:
    """The key as it is sent to the provider, or ValidationError (in the people's words)."""
    if not valid_tax_id(team.tax_id):
        raise ValidationError(
            _("Add the team's CNPJ or CPF first: only a key the team itself holds is paid.")
        )
    text = key.strip()
    if key_type in (PixKeyType.CPF, PixKeyType.CNPJ):
        number = digits(text)
        if len(number) != (11 if key_type == PixKeyType.CPF else 14) or not valid_tax_id(number):
            raise ValidationError(_("Not a valid %(type)s.") % {"type": key_type.upper()})
        if number != digits(team.tax_id):
            raise ValidationError(
                _("A %(type)s key must be the team's own CNPJ or CPF (%(tax_id)s).")
                % {"type": key_type.upper(), "tax_id": team.tax_id}
            )
        return number
    if key_type == PixKeyType.EMAIL:
        try:
            validate_email(text)
        except ValidationError:
            raise ValidationError(_("Not a valid e-mail address.")) from None
        return text.lower()
    if key_type == PixKeyType.PHONE:
        number = digits(text)
        if len(number) in (12, 13) and number.startswith("55"):
            number = number[2:]
        if not PHONE_DIGITS.fullmatch(number):
            raise ValidationError(
                _("Not a valid Brazilian phone number: its area code and number, e.g. 11987654321.")
            )
        return number
    if key_type == PixKeyType.EVP:
        try:
            return str(uuid.UUID(text))
        except ValueError:
            raise ValidationError(
                _("Not a valid random key: 32 hexadecimal digits, as the bank shows it.")
            ) from None
    raise ValidationError(_("Unknown key type."))


def payout_key_register(*, team: Team, key_type: str, key: str) -> PayoutKey:
    """Register (or replace) the team's payout key. Withdrawals already requested keep the key
    they were sent to."""
    normalized = payout_key_normalize(team=team, key_type=key_type, key=key)
    with transaction.atomic():
        payout_key, _created = PayoutKey.objects.update_or_create(
            team=team,
            defaults={"key_type": key_type, "key": normalized, "registered_at": timezone.now()},
        )
    return payout_key
