"""Which supplier serves a team: test mode always the sandbox; live mode Duffel when the team has
an active live Duffel integration, otherwise nothing (SupplierNotConnected: real wallet money
never buys sandbox tickets), unless the operator allows the sandbox in live mode
(FLIGHTS_LIVE_SANDBOX, for demos and staging). A booking keeps the supplier it was made with
(`supplier_for_booking`)."""

from django.conf import settings

from flights.suppliers.base import FlightSupplier, SupplierNotConnected


def _active_duffel_token(*, team, live_mode: bool) -> str | None:
    from agencies.models import Integration

    integration = Integration.objects.filter(
        team=team,
        live_mode=live_mode,
        provider=Integration.Provider.DUFFEL,
        status=Integration.Status.ACTIVE,
    ).first()
    return integration.access_token if integration is not None else None


def supplier_for(*, team, live_mode: bool) -> FlightSupplier:
    """The supplier new searches and bookings of the team use. Raises SupplierNotConnected in
    live mode without an active integration (unless FLIGHTS_LIVE_SANDBOX)."""
    if live_mode:
        token = _active_duffel_token(team=team, live_mode=True)
        if token is not None:
            return supplier_named("duffel", access_token=token)
        if not settings.FLIGHTS_LIVE_SANDBOX:
            raise SupplierNotConnected()
    return supplier_named("sandbox")


def supplier_for_booking(booking) -> FlightSupplier:
    """The supplier holding a booking's order: the one it was made with, whatever the team has
    connected or disconnected since."""
    if booking.supplier == "duffel":
        token = _active_duffel_token(team=booking.team, live_mode=booking.live_mode)
        if token is None:
            raise SupplierNotConnected()
        return supplier_named("duffel", access_token=token)
    return supplier_named(booking.supplier)


def supplier_named(name: str, *, access_token: str = "") -> FlightSupplier:
    if name == "sandbox":
        from flights.suppliers.sandbox import SandboxSupplier

        return SandboxSupplier()
    if name == "duffel":
        from flights.suppliers.duffel import DuffelSupplier

        return DuffelSupplier(access_token=access_token)
    raise ValueError(f"Unknown flight supplier {name!r}")
