from enum import StrEnum

class IntegrationObjectProvider(StrEnum):
    DUFFEL = "duffel"

    def __str__(self) -> str:
        return str(self.value)
