from enum import StrEnum

class IntegrationConnectedEventType(StrEnum):
    INTEGRATION_CONNECTED = "integration.connected"

    def __str__(self) -> str:
        return str(self.value)
