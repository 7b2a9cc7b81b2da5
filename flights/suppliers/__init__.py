"""Which supplier serves a team: test mode always the sandbox; live mode Duffel when the team has
an active live Duffel integration, otherwise the sandbox."""

from flights.suppliers.base import FlightSupplier


def supplier_for(*, team, live_mode: bool) -> FlightSupplier:
    if live_mode:
        from agencies.models import Integration

        integration = Integration.objects.filter(
            team=team,
            live_mode=True,
            provider=Integration.Provider.DUFFEL,
            status=Integration.Status.ACTIVE,
        ).first()
        if integration is not None:
            return supplier_named("duffel", access_token=integration.access_token)
    return supplier_named("sandbox")


def supplier_named(name: str, *, access_token: str = "") -> FlightSupplier:
    if name == "sandbox":
        from flights.suppliers.sandbox import SandboxSupplier

        return SandboxSupplier()
    if name == "duffel":
        from flights.suppliers.duffel import DuffelSupplier

        return DuffelSupplier(access_token=access_token)
    raise ValueError(f"Unknown flight supplier {name!r}")
