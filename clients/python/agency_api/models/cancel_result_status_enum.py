from enum import StrEnum

class CancelResultStatusEnum(StrEnum):
    CANCELLED = "cancelled"

    def __str__(self) -> str:
        return str(self.value)
