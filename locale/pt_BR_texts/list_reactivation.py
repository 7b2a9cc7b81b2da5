# ruff: noqa: E501
TRANSLATIONS = {
    "A test event is sent to %(url)s first; if the receiver accepts it, events are sent again, starting with those that waited, and the count of consecutive failures starts again from 0. If not, it stays deactivated.": "Um evento de teste é enviado primeiro para %(url)s; se o destino o aceitar, os eventos voltam a ser enviados, começando pelos que esperaram, e a contagem de falhas seguidas recomeça do 0. Se não, ele continua desativado.",
    "The receiver did not accept the test event; the webhook stays deactivated": "O destino não aceitou o evento de teste; o webhook continua desativado",
}
