from django.core.management.base import BaseCommand, CommandError

from agencies.models import Integration, Team
from agencies.services import integration_replace


class Command(BaseCommand):
    help = (
        "Connect a team's flight supplier for live mode with the team's own access token, "
        "replacing (disconnecting) the active one. Prints the new integration id."
    )

    def add_arguments(self, parser):
        parser.add_argument("team_id")
        parser.add_argument("provider", help="The flight supplier: duffel.")
        parser.add_argument("--access-token", required=True, help="The supplier's access token.")

    def handle(self, *args, team_id, provider, access_token, **options):
        team = Team.objects.filter(pk=team_id).first()
        if team is None:
            raise CommandError(f"Unknown team: {team_id!r}")
        if provider not in Integration.Provider.values:
            known = ", ".join(Integration.Provider.values)
            raise CommandError(f"Unknown provider: {provider!r} (known: {known})")
        access_token = access_token.strip()
        if not access_token:
            raise CommandError("The access token is empty")
        integration = integration_replace(
            team=team, live_mode=True, provider=provider, access_token=access_token
        )
        self.stdout.write(integration.id)
