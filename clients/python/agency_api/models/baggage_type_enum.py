from enum import StrEnum

class BaggageTypeEnum(StrEnum):
    CARRY_ON = "carry_on"
    CHECKED = "checked"

    def __str__(self) -> str:
        return str(self.value)
