from enum import StrEnum

class ReversalObjectStatus(StrEnum):
    APPLIED = "applied"
    CANCELLED = "cancelled"

    def __str__(self) -> str:
        return str(self.value)
