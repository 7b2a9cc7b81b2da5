from enum import StrEnum

class BookingConfirmedEventType(StrEnum):
    BOOKING_CONFIRMED = "booking.confirmed"

    def __str__(self) -> str:
        return str(self.value)
