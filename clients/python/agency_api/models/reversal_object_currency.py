from enum import StrEnum

class ReversalObjectCurrency(StrEnum):
    BRL = "BRL"

    def __str__(self) -> str:
        return str(self.value)
