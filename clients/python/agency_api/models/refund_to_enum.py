from enum import StrEnum

class RefundToEnum(StrEnum):
    AIRLINE_CREDITS = "airline_credits"
    ARC_BSP_CASH = "arc_bsp_cash"
    AWAITING_PAYMENT = "awaiting_payment"
    BALANCE = "balance"
    CARD = "card"
    ORIGINAL_FORM_OF_PAYMENT = "original_form_of_payment"
    VOUCHER = "voucher"

    def __str__(self) -> str:
        return str(self.value)
