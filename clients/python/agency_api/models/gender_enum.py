from enum import StrEnum

class GenderEnum(StrEnum):
    F = "f"
    M = "m"

    def __str__(self) -> str:
        return str(self.value)
