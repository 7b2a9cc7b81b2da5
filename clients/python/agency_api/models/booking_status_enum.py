from enum import StrEnum

class BookingStatusEnum(StrEnum):
    CANCELLED = "cancelled"
    CONFIRMED = "confirmed"
    EXPIRED = "expired"
    FAILED = "failed"
    PENDING = "pending"
    TICKETED = "ticketed"

    def __str__(self) -> str:
        return str(self.value)
