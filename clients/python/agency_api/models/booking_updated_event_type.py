from enum import StrEnum

class BookingUpdatedEventType(StrEnum):
    BOOKING_UPDATED = "booking.updated"

    def __str__(self) -> str:
        return str(self.value)
