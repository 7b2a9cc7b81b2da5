from enum import StrEnum

class FailureCodeEnum(StrEnum):
    HOLDER_MISMATCH = "holder_mismatch"
    REFUSED = "refused"
    TRANSFER_CANCELLED = "transfer_cancelled"
    TRANSFER_FAILED = "transfer_failed"

    def __str__(self) -> str:
        return str(self.value)
