from enum import StrEnum

class BookingsCancellationsCreateApiVersion(StrEnum):
    VALUE_0 = "2026-11-22"
    VALUE_1 = "2026-11-28"

    def __str__(self) -> str:
        return str(self.value)
