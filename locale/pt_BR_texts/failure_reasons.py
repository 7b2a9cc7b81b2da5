# ruff: noqa: E501
TRANSLATIONS = {
    "The airline could not issue the tickets.": "A companhia aérea não conseguiu emitir os bilhetes.",
    "The flight supplier was unavailable.": "O fornecedor de voos estava indisponível.",
    "The flight supplier refused the order.": "O fornecedor de voos recusou o pedido.",
    "The flight supplier did not answer in time.": "O fornecedor de voos não respondeu a tempo.",
    "The airline no longer has this offer.": "A companhia aérea não tem mais esta oferta.",
    "The offer expired at the airline.": "A oferta expirou na companhia aérea.",
    "The airline's price changed.": "O preço da companhia aérea mudou.",
    "The airline refused the passengers' data.": "A companhia aérea recusou os dados dos passageiros.",
    "The flight supplier has no order for this booking.": "O fornecedor de voos não tem pedido para esta reserva.",
}
