# ruff: noqa: E501
TRANSLATIONS = {
    "HTTP %(status)s: redirects are not followed": "HTTP %(status)s: redirecionamentos não são seguidos",
    "Refused: the URL resolves to a private or reserved address": "Recusado: a URL aponta para um endereço privado ou reservado",
    "No answer within %(seconds)s s": "Sem resposta em %(seconds)s s",
    "TLS error: the certificate could not be verified": "Erro de TLS: o certificado não pôde ser verificado",
    "Connection failed: %(kind)s": "Falha na conexão: %(kind)s",
}
