from enum import StrEnum

class CabinClassEnum(StrEnum):
    BUSINESS = "business"
    ECONOMY = "economy"
    FIRST = "first"
    PREMIUM_ECONOMY = "premium_economy"

    def __str__(self) -> str:
        return str(self.value)
