from enum import StrEnum

class EventTypeEnum(StrEnum):
    API_KEY_CREATED = "api_key.created"
    API_KEY_REVOKED = "api_key.revoked"
    BOOKING_AIRLINE_CHANGE_DETECTED = "booking.airline_change_detected"
    BOOKING_CANCELLED = "booking.cancelled"
    BOOKING_CONFIRMED = "booking.confirmed"
    BOOKING_CREATED = "booking.created"
    BOOKING_EXPIRED = "booking.expired"
    BOOKING_FAILED = "booking.failed"
    BOOKING_TICKETED = "booking.ticketed"
    BOOKING_UPDATED = "booking.updated"
    INTEGRATION_CONNECTED = "integration.connected"
    INTEGRATION_DISCONNECTED = "integration.disconnected"
    WALLET_CREDIT = "wallet.credit"
    WALLET_DEBIT = "wallet.debit"
    WALLET_LOW_BALANCE = "wallet.low_balance"
    WALLET_RECHARGE_COMPLETED = "wallet.recharge.completed"
    WALLET_RECHARGE_EXPIRED = "wallet.recharge.expired"
    WALLET_RECHARGE_PENDING = "wallet.recharge.pending"
    WALLET_REVERSAL = "wallet.reversal"
    WALLET_WITHDRAWAL_COMPLETED = "wallet.withdrawal.completed"
    WALLET_WITHDRAWAL_CREATED = "wallet.withdrawal.created"
    WALLET_WITHDRAWAL_FAILED = "wallet.withdrawal.failed"

    def __str__(self) -> str:
        return str(self.value)
