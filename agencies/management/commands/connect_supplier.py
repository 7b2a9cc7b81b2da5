import sys

from django.core.management.base import BaseCommand, CommandError

from agencies.models import Integration, Team
from agencies.services import integration_replace


class Command(BaseCommand):
    help = (
        "Connect a team's flight supplier for live mode with the team's own access token, "
        "replacing (disconnecting) the active one. The token is read from standard input (or "
        "--access-token-file), never from the command line, where other users of the machine "
        "(ps) and the shell's history would see it. Prints the new integration id."
    )
    stealth_options = ("stdin",)  # call_command(..., stdin=...) in tests

    def add_arguments(self, parser):
        parser.add_argument("team_id")
        parser.add_argument("provider", help="The flight supplier: duffel.")
        parser.add_argument(
            "--access-token-file",
            default="-",
            help="A file holding the supplier's access token; '-' (the default): standard input.",
        )
        # Refused with a reason rather than unknown: it was the way to pass the token before.
        parser.add_argument("--access-token", help="Refused: see --access-token-file.")

    def handle(self, *args, team_id, provider, access_token_file, access_token=None, **options):
        if access_token is not None:
            raise CommandError(
                "The access token is not taken on the command line (other users and the shell's "
                "history would see it): pipe it on standard input or use --access-token-file"
            )
        team = Team.objects.filter(pk=team_id).first()
        if team is None:
            raise CommandError(f"Unknown team: {team_id!r}")
        if provider not in Integration.Provider.values:
            known = ", ".join(Integration.Provider.values)
            raise CommandError(f"Unknown provider: {provider!r} (known: {known})")
        token = self._read_token(access_token_file, options.get("stdin") or sys.stdin)
        integration = integration_replace(
            team=team, live_mode=True, provider=provider, access_token=token
        )
        self.stdout.write(integration.id)

    def _read_token(self, path: str, stdin) -> str:
        if path == "-":
            if stdin.isatty():
                self.stderr.write("Access token (then Enter): ", ending="")
            token = stdin.readline()
        else:
            try:
                with open(path, encoding="utf-8") as file:
                    token = file.read()
            except OSError as exc:
                raise CommandError(f"Cannot read the access token file: {exc}") from None
        token = token.strip()
        if not token:
            raise CommandError("The access token is empty")
        return token
