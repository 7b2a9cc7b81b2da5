"""Create (once) the demo agency and a support login for the local embedded service, and print
their credentials. Keys are stored hashed, so the plain ones are kept in var/demo.json, a local
file of this checkout, to be printed again on the next start."""

import json
import secrets
from decimal import Decimal

from django.conf import settings
from django.core.management.base import BaseCommand

from agencies.models import Integration, Team, User
from agencies.services import team_create

DEMO_FILE = settings.VAR_DIR / "demo.json"


class Command(BaseCommand):
    help = "Create the demo agency and a support user if missing; print keys and URLs."

    def add_arguments(self, parser):
        parser.add_argument("--base-url", default=settings.PUBLIC_BASE_URL)

    def handle(self, *args, base_url, **options):
        demo = self._load_or_create()
        lines = [
            "",
            "Agency back office is running (embedded default: SQLite + filesystem broker).",
            f"  API:            {base_url}/api/v1",
            f"  API docs:       {base_url}/api/v1/docs",
            f"  OpenAPI schema: {base_url}/api/v1/schema",
            f"  Panel:          {base_url}/admin/",
            f"  Health:         {base_url}/health",
            "",
            f"Demo agency {demo['team_id']}",
            f"  test key: {demo['test_key']}",
            f"  live key: {demo['live_key']}",
            f"  live flights: {self._live_flights(demo['team_id'])}",
            f"  panel login (agency user): {demo['owner_email']} / {demo['owner_password']}",
            f"  panel login (support):     {demo['support_username']} / {demo['support_password']}",
            "",
            "Try:",
            f"  curl -s {base_url}/api/v1/wallet/balance "
            f"-H 'Authorization: Bearer {demo['test_key']}'",
            "",
        ]
        self.stdout.write("\n".join(lines))

    @staticmethod
    def _live_flights(team_id: str) -> str:
        if Integration.objects.filter(
            team_id=team_id, live_mode=True, status=Integration.Status.ACTIVE
        ).exists():
            return "Duffel (connected)"
        if settings.FLIGHTS_LIVE_SANDBOX:
            return "the sandbox (FLIGHTS_LIVE_SANDBOX=true)"
        return (
            "refused until a supplier is connected: python manage.py connect_supplier "
            f"{team_id} duffel --access-token <token>"
        )

    def _load_or_create(self) -> dict:
        if DEMO_FILE.exists():
            demo = json.loads(DEMO_FILE.read_text())
            if Team.objects.filter(pk=demo["team_id"]).exists():
                return demo
        owner_password = secrets.token_urlsafe(12)
        created = team_create(
            name="Demo Travel",
            owner_email="owner@demo-travel.example",
            markup_percent=Decimal("10"),
            fee=Decimal("25.00"),
            owner_password=owner_password,
        )
        support_password = secrets.token_urlsafe(12)
        User.objects.filter(username="support").delete()
        User.objects.create_superuser("support", "support@localhost", support_password)
        demo = {
            "team_id": created.team.id,
            "test_key": created.test_key,
            "live_key": created.live_key,
            "owner_email": created.owner.email,
            "owner_password": owner_password,
            "support_username": "support",
            "support_password": support_password,
        }
        DEMO_FILE.parent.mkdir(parents=True, exist_ok=True)
        DEMO_FILE.write_text(json.dumps(demo, indent=2))
        DEMO_FILE.chmod(0o600)
        return demo
