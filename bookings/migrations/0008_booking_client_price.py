"""Bookings keep the agency's price (markup, fee, client_amount) as the search showed it.

Bookings made before get it priced again from their team's current markup and fee: the only
record there is of it (the panel and the e-mails show it; the wallet never moves on it)."""

from decimal import ROUND_HALF_UP, Decimal

from django.db import migrations, models

CENT = Decimal("0.01")


def price_existing_bookings(apps, schema_editor):
    Booking = apps.get_model("bookings", "Booking")
    for booking in Booking.objects.select_related("team").iterator():
        team = booking.team
        markup = (booking.base_cost_brl * team.markup_percent / 100).quantize(
            CENT, rounding=ROUND_HALF_UP
        )
        fee = Decimal(getattr(team.fee, "amount", team.fee)).quantize(CENT, rounding=ROUND_HALF_UP)
        Booking.objects.filter(pk=booking.pk).update(
            markup_amount=markup, fee_amount=fee, client_amount=booking.base_cost_brl + markup + fee
        )


def amount(verbose_name, **options):
    return models.DecimalField(
        decimal_places=2, max_digits=14, verbose_name=verbose_name, **options
    )


class Migration(migrations.Migration):
    dependencies = [
        ("agencies", "0004_invitation"),
        ("bookings", "0007_personal_data_erased_at_label"),
    ]

    operations = [
        migrations.AddField("booking", "markup_amount", amount("markup", null=True)),
        migrations.AddField("booking", "fee_amount", amount("fee", null=True)),
        migrations.AddField("booking", "client_amount", amount("client price", null=True)),
        migrations.RunPython(price_existing_bookings, migrations.RunPython.noop),
        migrations.AlterField("booking", "markup_amount", amount("markup")),
        migrations.AlterField("booking", "fee_amount", amount("fee")),
        migrations.AlterField(
            "booking",
            "client_amount",
            amount(
                "client price",
                help_text="What the agency's customer pays: cost in BRL + markup + fee.",
            ),
        ),
    ]
