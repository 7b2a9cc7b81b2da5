"""The payment pages a payer opens from a browser or an e-mail link: the PIX QR image and the
boleto (HTML and PDF). They are opened by the `token` in the link (an HMAC of the recharge id)
or by an API key of the recharge's team and mode; anything else is "Recharge not found". They
are served while the recharge can be paid (`payment_pages_open`), are rate-limited per client
address (every request, and the failures apart) and per recharge (only the requests allowed to
open it), and send no Referer onward (the token is in the URL)."""

import hashlib
import math
from functools import wraps

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from agencies.authentication import resolve_api_key
from api.apis import json_error
from core.exceptions import register_error
from core.http import client_address
from core.middleware import people_facing
from core.rate_windows import already_over, over_limit
from wallet import boleto, pix
from wallet.models import PaymentMethod, Recharge
from wallet.page_tokens import payment_page_token, payment_page_token_valid
from wallet.services.recharges import payment_pages_open

PAGE_EXPIRED, PAGE_EXPIRED_MESSAGE = "payment_page_expired", "Payment page expired"
register_error(
    PAGE_EXPIRED,
    410,
    PAGE_EXPIRED_MESSAGE,
    description="A payment page (PIX QR, boleto) of a recharge that can no longer be paid.",
    module=__name__,
)


class _Closed(Exception):
    def __init__(self, recharge: Recharge):
        self.recharge = recharge


def _rate_limited(request) -> HttpResponse | None:
    """Per client address: every request counts, and a request turned away as not found (an
    unknown id, a wrong token) counts as a failure too; an address over either limit waits.
    Per recharge, only requests allowed to open it count (`_recharge_for`): wrong tokens cannot
    use up the payer's quota."""
    address = client_address(request)
    retry_after = already_over(
        f"payment-page-failures:{address}", settings.PAYMENT_PAGES_FAILURE_LIMIT_PER_ADDRESS
    )
    if retry_after is None:
        retry_after = over_limit(
            f"payment-page:address:{address}", settings.PAYMENT_PAGES_RATE_LIMIT_PER_ADDRESS
        )
    return None if retry_after is None else _too_many(request, retry_after)


def _too_many(request, retry_after: float) -> HttpResponse:
    response = json_error(request, status=429, code="rate_limited", message="Rate limit exceeded")
    response["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return response


def _count_failure(request) -> None:
    over_limit(
        f"payment-page-failures:{client_address(request)}",
        settings.PAYMENT_PAGES_FAILURE_LIMIT_PER_ADDRESS,
    )


class _RechargeBusy(Exception):
    def __init__(self, retry_after: float):
        self.retry_after = retry_after


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def payment_page(view):
    """Rate limits first; then the page, or 410 when the recharge's pages are closed. The
    token must not leak through the Referer header or a shared cache."""

    @require_GET
    @wraps(view)
    def wrapper(request, recharge_id: str):
        response = _rate_limited(request)
        if response is None:
            try:
                response = view(request, recharge_id)
            except _Closed as closed:
                response = json_error(
                    request,
                    status=410,
                    code=PAGE_EXPIRED,
                    message=PAGE_EXPIRED_MESSAGE,
                    details={"status": closed.recharge.status},
                )
            except _RechargeBusy as busy:
                response = _too_many(request, busy.retry_after)
            if response.status_code == 404:
                _count_failure(request)
        response["Referrer-Policy"] = "no-referrer"
        response["Cache-Control"] = "private, no-store"
        return response

    return wrapper


def _recharge_for(request, recharge_id: str, method: str) -> Recharge | None:
    """The recharge, if the request may open it; raises _Closed if its pages are closed."""
    recharge = (
        Recharge.objects.select_related("team")
        .filter(pk=recharge_id, payment_method=method)
        .first()
    )
    if recharge is None:
        return None
    if not payment_page_token_valid(recharge.id, request.GET.get("token", "")):
        key = resolve_api_key(request)
        owner = (
            key
            and key.is_active
            and key.team_id == recharge.team_id
            and key.live_mode == recharge.live_mode
        )
        if not owner:
            return None
    # Hashed: cache keys stay plain whatever the id.
    retry_after = over_limit(
        f"payment-page:recharge:{_digest(recharge.id)}",
        settings.PAYMENT_PAGES_RATE_LIMIT_PER_RECHARGE,
    )
    if retry_after is not None:
        raise _RechargeBusy(retry_after)
    if not payment_pages_open(recharge):
        raise _Closed(recharge)
    return recharge


def _not_found(request):
    return json_error(request, status=404, code="recharge_not_found", message="Recharge not found")


@payment_page
def pix_qr(request, recharge_id: str):
    recharge = _recharge_for(request, recharge_id, PaymentMethod.PIX)
    if recharge is None or not recharge.pix_copy_paste:
        return _not_found(request)
    if request.GET.get("format") == "svg":
        return HttpResponse(pix.qr_svg(recharge.pix_copy_paste), content_type="image/svg+xml")
    return HttpResponse(pix.qr_png(recharge.pix_copy_paste), content_type="image/png")


def _boleto_context(recharge: Recharge) -> dict:
    team = recharge.team
    return {  # the PDF is a Brazilian bank document: always in Portuguese
        "recharge": recharge,
        "beneficiary_name": settings.BOLETO_BENEFICIARY_NAME,
        "beneficiary_document": settings.BOLETO_BENEFICIARY_DOCUMENT,
        "payer_name": team.name,
        "payer_document": team.tax_id,
        "amount_brl": boleto.format_brl(recharge.amount),
        "test_mode": not recharge.live_mode,
        "token": payment_page_token(recharge.id),
    }


@payment_page
@people_facing
def boleto_page(request, recharge_id: str):
    recharge = _recharge_for(request, recharge_id, PaymentMethod.BOLETO)
    if recharge is None or not recharge.boleto_barcode:
        return _not_found(request)
    return render(request, "wallet/boleto.html", _boleto_context(recharge))


@payment_page
def boleto_pdf(request, recharge_id: str):
    recharge = _recharge_for(request, recharge_id, PaymentMethod.BOLETO)
    if recharge is None or not recharge.boleto_barcode:
        return _not_found(request)
    assert recharge.boleto_due_date is not None  # a boleto with a barcode has its due date
    context = _boleto_context(recharge)
    instructions = [
        "Pagável em qualquer banco até o vencimento.",
        f"Recarga de carteira {recharge.id}.",
    ]
    if context["test_mode"]:
        instructions.insert(0, "MODO DE TESTE: este boleto não tem valor e não deve ser pago.")
    from wallet.boleto_pdf import boleto_pdf  # reportlab: loaded by the first PDF asked for

    document = boleto_pdf(
        beneficiary_name=context["beneficiary_name"],
        beneficiary_document=context["beneficiary_document"],
        payer_name=context["payer_name"],
        payer_document=context["payer_document"] or "não informado",
        amount=recharge.amount,
        due=recharge.boleto_due_date,
        linha=recharge.boleto_linha_digitavel,
        barcode=recharge.boleto_barcode,
        document_number=recharge.id,
        instructions=instructions,
    )
    response = HttpResponse(document, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="boleto-{recharge.id}.pdf"'
    return response
