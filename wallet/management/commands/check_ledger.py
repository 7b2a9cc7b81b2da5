from django.core.management.base import BaseCommand, CommandError

from wallet.ledger_check import ledger_problems
from wallet.models import Wallet


class Command(BaseCommand):
    help = "Verify every live wallet against its ledger; exit non-zero naming each bad wallet."

    def handle(self, *args, **options):
        problems = ledger_problems()
        for problem in problems:
            self.stderr.write(f"wallet of {problem.team_id}: {problem.message}")
        if problems:
            raise CommandError(f"{len({p.team_id for p in problems})} wallet(s) inconsistent")
        self.stdout.write(self.style.SUCCESS(f"{Wallet.objects.count()} wallet(s) consistent"))
