from enum import StrEnum

class ChangeOfferRefundToEnum(StrEnum):
    AIRLINE_CREDITS = "airline_credits"
    ARC_BSP_CASH = "arc_bsp_cash"
    BALANCE = "balance"
    ORIGINAL_FORM_OF_PAYMENT = "original_form_of_payment"
    VOUCHER = "voucher"

    def __str__(self) -> str:
        return str(self.value)
