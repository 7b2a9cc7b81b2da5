from enum import StrEnum

class PassengerTypeEnum(StrEnum):
    ADULT = "adult"
    CHILD = "child"
    INFANT_WITHOUT_SEAT = "infant_without_seat"

    def __str__(self) -> str:
        return str(self.value)
