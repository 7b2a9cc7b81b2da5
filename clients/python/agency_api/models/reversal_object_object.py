from enum import StrEnum

class ReversalObjectObject(StrEnum):
    REVERSAL = "reversal"

    def __str__(self) -> str:
        return str(self.value)
