# ruff: noqa: E501
"""The e-mails to travellers and agencies (issue 14, docs/emails.md)."""

TRANSLATIONS = {
    # The team's setting
    "e-mail language": "idioma dos e-mails",
    "Language of the e-mails to its customers and to the agency.": "Idioma dos e-mails aos clientes da agência e à própria agência.",
    # Booking e-mails
    "Booking reference": "Localizador da reserva",
    "Airline": "Companhia aérea",
    "Departs": "Partida",
    "Arrives": "Chegada",
    "terminal %(terminal)s": "terminal %(terminal)s",
    "Times are the local time of each airport.": "Os horários são os locais de cada aeroporto.",
    "Passenger": "Passageiro",
    "Passengers": "Passageiros",
    "not issued yet": "ainda não emitido",
    "e-ticket": "bilhete eletrônico",
    "e-ticket not issued yet": "bilhete eletrônico ainda não emitido",
    "Total price": "Valor total",
    "To write to %(agency)s, reply to this e-mail.": "Para falar com a %(agency)s, responda a este e-mail.",
    "%(agency)s received your booking.": "A %(agency)s recebeu a sua reserva.",
    "It is on hold until paid.": "Ela fica reservada até o pagamento.",
    "To keep it, pay %(price)s to %(agency)s by %(deadline)s.": "Para garanti-la, pague %(price)s à %(agency)s até %(deadline)s.",
    'To pay, contact %(agency)s at <a href="mailto:%(email)s">%(email)s</a>, or reply to this e-mail.': 'Para pagar, fale com a %(agency)s em <a href="mailto:%(email)s">%(email)s</a> ou responda a este e-mail.',
    "To pay, contact %(agency)s at %(email)s, or reply to this e-mail.": "Para pagar, fale com a %(agency)s em %(email)s ou responda a este e-mail.",
    "To pay, contact %(agency)s.": "Para pagar, fale com a %(agency)s.",
    "Without payment by then, the booking expires and its seats are released.": "Sem o pagamento até lá, a reserva expira e os assentos são liberados.",
    "Your booking with %(agency)s is on hold and not paid yet.": "A sua reserva com a %(agency)s ainda não foi paga.",
    "Your tickets were issued. Each passenger's e-ticket number is below: keep this e-mail, and bring an identity document to check in.": "Os seus bilhetes foram emitidos. O número do bilhete eletrônico de cada passageiro está abaixo: guarde este e-mail e leve um documento de identidade para o check-in.",
    "Your booking with %(agency)s was cancelled.": "A sua reserva com a %(agency)s foi cancelada.",
    "Nothing was charged for this booking: there is nothing to refund.": "Nada foi cobrado por esta reserva: não há o que reembolsar.",
    "Refund: <strong>%(amount)s</strong>, the whole price paid.": "Reembolso: <strong>%(amount)s</strong>, o valor total pago.",
    "Refund: %(amount)s, the whole price paid.": "Reembolso: %(amount)s, o valor total pago.",
    "Refund: <strong>%(amount)s</strong> of the %(price)s paid; the airline keeps a cancellation penalty.": "Reembolso: <strong>%(amount)s</strong> dos %(price)s pagos; a companhia aérea retém uma multa de cancelamento.",
    "Refund: %(amount)s of the %(price)s paid; the airline keeps a cancellation penalty.": "Reembolso: %(amount)s dos %(price)s pagos; a companhia aérea retém uma multa de cancelamento.",
    "This fare is not refundable: nothing is refunded.": "Esta tarifa não é reembolsável: nada é devolvido.",
    "%(agency)s makes the refund: reply to this e-mail to agree how and when.": "O reembolso é feito pela %(agency)s: responda a este e-mail para combinar como e quando.",
    # The webhook alert
    "A webhook of %(agency)s, <strong>%(url)s</strong> (%(id)s), was deactivated after %(failures)s consecutive failed delivery attempts. It receives no events until you reactivate it.": "Um webhook da %(agency)s, <strong>%(url)s</strong> (%(id)s), foi desativado após %(failures)s tentativas de entrega seguidas sem sucesso. Ele não recebe eventos até ser reativado.",
    "A webhook of %(agency)s, %(url)s (%(id)s), was deactivated after %(failures)s consecutive failed delivery attempts. It receives no events until you reactivate it.": "Um webhook da %(agency)s, %(url)s (%(id)s), foi desativado após %(failures)s tentativas de entrega seguidas sem sucesso. Ele não recebe eventos até ser reativado.",
    "Deactivated on %(deactivated)s.": "Desativado em %(deactivated)s.",
}
