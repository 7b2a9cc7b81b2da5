from enum import StrEnum

class BookingAirlineChangeDetectedEventType(StrEnum):
    BOOKING_AIRLINE_CHANGE_DETECTED = "booking.airline_change_detected"

    def __str__(self) -> str:
        return str(self.value)
