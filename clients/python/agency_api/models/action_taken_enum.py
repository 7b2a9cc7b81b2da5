from enum import StrEnum

class ActionTakenEnum(StrEnum):
    ACCEPTED = "accepted"
    CANCELLED = "cancelled"
    CHANGED = "changed"

    def __str__(self) -> str:
        return str(self.value)
