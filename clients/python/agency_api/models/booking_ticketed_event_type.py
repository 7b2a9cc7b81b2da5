from enum import StrEnum

class BookingTicketedEventType(StrEnum):
    BOOKING_TICKETED = "booking.ticketed"

    def __str__(self) -> str:
        return str(self.value)
