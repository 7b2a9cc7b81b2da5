# ruff: noqa: E501
TRANSLATIONS = {
    "Booking %(booking)s (%(airline)s)": "Reserva %(booking)s (%(airline)s)",
    "Refund of booking %(booking)s: issuance failed": "Reembolso da reserva %(booking)s: a emissão falhou",
    "Refund of booking %(booking)s": "Reembolso da reserva %(booking)s",
    "Recharge %(recharge)s by %(method)s": "Recarga %(recharge)s por %(method)s",
}
