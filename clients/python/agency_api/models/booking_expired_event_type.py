from enum import StrEnum

class BookingExpiredEventType(StrEnum):
    BOOKING_EXPIRED = "booking.expired"

    def __str__(self) -> str:
        return str(self.value)
