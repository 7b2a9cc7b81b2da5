from enum import StrEnum

class IntegrationObjectStatus(StrEnum):
    ACTIVE = "active"
    DISCONNECTED = "disconnected"

    def __str__(self) -> str:
        return str(self.value)
