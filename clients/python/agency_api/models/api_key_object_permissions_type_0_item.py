from enum import StrEnum

class ApiKeyObjectPermissionsType0Item(StrEnum):
    BOOKINGSREAD = "bookings:read"
    BOOKINGSWRITE = "bookings:write"
    CLIENTSREAD = "clients:read"
    CLIENTSWRITE = "clients:write"
    EVENTSREAD = "events:read"
    FLIGHTSREAD = "flights:read"
    REPORTSREAD = "reports:read"
    WALLETREAD = "wallet:read"
    WALLETWRITE = "wallet:write"
    WEBHOOKSREAD = "webhooks:read"
    WEBHOOKSWRITE = "webhooks:write"

    def __str__(self) -> str:
        return str(self.value)
