from enum import StrEnum

class LocationTypeEnum(StrEnum):
    AIRPORT = "airport"
    CITY = "city"

    def __str__(self) -> str:
        return str(self.value)
