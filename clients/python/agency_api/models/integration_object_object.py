from enum import StrEnum

class IntegrationObjectObject(StrEnum):
    INTEGRATION = "integration"

    def __str__(self) -> str:
        return str(self.value)
