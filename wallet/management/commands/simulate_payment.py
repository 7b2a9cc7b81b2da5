from django.core.management.base import BaseCommand, CommandError

from wallet.models import Recharge
from wallet.services import recharge_complete


class Command(BaseCommand):
    help = "Pay a sandbox recharge as if its payer had paid it (credits the wallet once)."

    def add_arguments(self, parser):
        parser.add_argument("recharge_id")

    def handle(self, *args, recharge_id, **options):
        recharge = Recharge.objects.filter(pk=recharge_id).first()
        if recharge is None:
            raise CommandError(f"Recharge not found: {recharge_id}")
        if recharge.provider != "sandbox":
            raise CommandError(
                f"{recharge_id} is a real {recharge.provider} charge; "
                "only sandbox recharges can be simulated"
            )
        was_completed = recharge.status == Recharge.Status.COMPLETED
        recharge = recharge_complete(recharge=recharge)
        if was_completed:
            self.stdout.write(f"{recharge.id} was already completed ({recharge.transaction_id})")
        else:
            self.stdout.write(
                self.style.SUCCESS(
                    f"{recharge.id} completed: credited {recharge.paid_amount} BRL "
                    f"({recharge.transaction_id})"
                )
            )
