from enum import StrEnum

class BookingTypeEnum(StrEnum):
    HOLD = "hold"
    INSTANT = "instant"

    def __str__(self) -> str:
        return str(self.value)
