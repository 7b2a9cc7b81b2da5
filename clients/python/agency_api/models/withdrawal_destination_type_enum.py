from enum import StrEnum

class WithdrawalDestinationTypeEnum(StrEnum):
    PIX = "pix"

    def __str__(self) -> str:
        return str(self.value)
