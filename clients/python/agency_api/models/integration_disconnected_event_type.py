from enum import StrEnum

class IntegrationDisconnectedEventType(StrEnum):
    INTEGRATION_DISCONNECTED = "integration.disconnected"

    def __str__(self) -> str:
        return str(self.value)
