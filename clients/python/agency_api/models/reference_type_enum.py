from enum import StrEnum

class ReferenceTypeEnum(StrEnum):
    BOOKING = "booking"
    BOOKING_CHANGE = "booking_change"
    BOOKING_SERVICES = "booking_services"
    DEBT_PAYMENT = "debt_payment"
    RECHARGE = "recharge"
    REFUND = "refund"
    REVERSAL = "reversal"
    WITHDRAWAL = "withdrawal"

    def __str__(self) -> str:
        return str(self.value)
