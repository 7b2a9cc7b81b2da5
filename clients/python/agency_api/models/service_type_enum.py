from enum import StrEnum

class ServiceTypeEnum(StrEnum):
    BAGGAGE = "baggage"
    SEAT = "seat"

    def __str__(self) -> str:
        return str(self.value)
