# ruff: noqa: E501
TRANSLATIONS = {
    "client price": "preço ao cliente",
    "What the agency's customer pays: cost in BRL + markup + fee.": "O que o cliente da agência paga: custo em reais + margem + taxa.",
}
