from enum import StrEnum

class BookingCreatedEventType(StrEnum):
    BOOKING_CREATED = "booking.created"

    def __str__(self) -> str:
        return str(self.value)
