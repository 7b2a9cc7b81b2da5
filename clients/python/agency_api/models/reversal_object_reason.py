from enum import StrEnum

class ReversalObjectReason(StrEnum):
    CHARGEBACK = "chargeback"
    REFUND = "refund"

    def __str__(self) -> str:
        return str(self.value)
