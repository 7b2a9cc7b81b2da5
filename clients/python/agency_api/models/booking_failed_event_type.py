from enum import StrEnum

class BookingFailedEventType(StrEnum):
    BOOKING_FAILED = "booking.failed"

    def __str__(self) -> str:
        return str(self.value)
