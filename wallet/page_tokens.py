"""The token in the links of a recharge's payment pages (the PIX QR image and the boleto),
which opens them without an API key. A function of the recharge id alone, below the services,
so that the wire shapes (`wallet.payloads`) and the pages (`wallet.pages`) use it without
importing them."""

from django.utils.crypto import constant_time_compare, salted_hmac


def payment_page_token(recharge_id: str) -> str:
    """The token that opens a recharge's QR image and boleto pages without an API key (links
    in e-mails and <img> tags). An HMAC of the id: it opens that recharge and nothing else."""
    return salted_hmac("wallet.payment-page", recharge_id).hexdigest()[:32]


def payment_page_token_valid(recharge_id: str, token: str) -> bool:
    return constant_time_compare(payment_page_token(recharge_id), token or "")
