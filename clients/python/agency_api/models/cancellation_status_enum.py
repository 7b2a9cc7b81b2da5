from enum import StrEnum

class CancellationStatusEnum(StrEnum):
    CONFIRMED = "confirmed"
    CONFIRMING = "confirming"
    EXPIRED = "expired"
    QUOTED = "quoted"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return str(self.value)
