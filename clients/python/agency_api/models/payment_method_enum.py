from enum import StrEnum

class PaymentMethodEnum(StrEnum):
    BOLETO = "boleto"
    PIX = "pix"

    def __str__(self) -> str:
        return str(self.value)
