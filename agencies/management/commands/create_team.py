import json
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from agencies.services import team_create


def _decimal(value: str) -> Decimal:
    try:
        return Decimal(value)
    except InvalidOperation:
        raise CommandError(f"Not a decimal number: {value!r}") from None


class Command(BaseCommand):
    help = (
        "Create a team with its wallet, an owner panel user, and one test and one live API "
        'key. With --json, print exactly {"team_id", "test_key", "live_key"}.'
    )

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--owner-email", required=True)
        parser.add_argument("--markup-percent", type=_decimal, default=Decimal("0"))
        parser.add_argument(
            "--fee",
            type=_decimal,
            default=Decimal("0"),
            help="Fixed fee in BRL added to every offer.",
        )
        parser.add_argument(
            "--owner-password",
            default=None,
            help=(
                "Panel password of the owner, checked by the password validators "
                "(default: none; set it later)."
            ),
        )
        parser.add_argument("--tax-id", default="", help="CNPJ or CPF (needed for Asaas).")
        parser.add_argument("--json", action="store_true", dest="as_json")

    def handle(
        self,
        *args,
        name,
        owner_email,
        markup_percent,
        fee,
        owner_password,
        tax_id,
        as_json,
        **options,
    ):
        try:
            created = team_create(
                name=name,
                owner_email=owner_email,
                markup_percent=markup_percent,
                fee=fee,
                owner_password=owner_password,
                tax_id=tax_id,
            )
        except ValidationError as exc:
            raise CommandError(
                "; ".join(
                    f"{field}: {' '.join(errors)}" for field, errors in exc.message_dict.items()
                )
            ) from None
        result = {
            "team_id": created.team.id,
            "test_key": created.test_key,
            "live_key": created.live_key,
        }
        if as_json:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(
            self.style.SUCCESS(f"Created team {created.team.name} ({created.team.id})")
        )
        self.stdout.write(f"  owner:    {created.owner.email}")
        self.stdout.write(f"  test key: {created.test_key}")
        self.stdout.write(f"  live key: {created.live_key}")
        self.stdout.write("The keys are shown only now; store them safely.")
