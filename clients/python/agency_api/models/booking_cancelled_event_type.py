from enum import StrEnum

class BookingCancelledEventType(StrEnum):
    BOOKING_CANCELLED = "booking.cancelled"

    def __str__(self) -> str:
        return str(self.value)
