"""The payment pages a payer opens from a browser or an e-mail link: the PIX QR image and the
boleto (HTML and PDF). They are opened by the `token` in the link (an HMAC of the recharge id)
or by an API key of the recharge's team and mode; anything else is "Recharge not found"."""

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from core.apis import json_error
from core.authentication import resolve_api_key
from core.middleware import people_facing
from wallet import boleto, pix
from wallet.models import PaymentMethod, Recharge
from wallet.services.recharges import payment_page_token, payment_page_token_valid


def _recharge_for(request, recharge_id: str, method: str) -> Recharge | None:
    recharge = (
        Recharge.objects.select_related("team")
        .filter(pk=recharge_id, payment_method=method)
        .first()
    )
    if recharge is None:
        return None
    if payment_page_token_valid(recharge.id, request.GET.get("token", "")):
        return recharge
    key = resolve_api_key(request)
    if (
        key
        and key.is_active
        and key.team_id == recharge.team_id
        and (key.live_mode == recharge.live_mode)
    ):
        return recharge
    return None


def _not_found(request):
    return json_error(request, status=404, code="recharge_not_found", message="Recharge not found")


@require_GET
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


@require_GET
@people_facing
def boleto_page(request, recharge_id: str):
    recharge = _recharge_for(request, recharge_id, PaymentMethod.BOLETO)
    if recharge is None or not recharge.boleto_barcode:
        return _not_found(request)
    return render(request, "wallet/boleto.html", _boleto_context(recharge))


@require_GET
def boleto_pdf(request, recharge_id: str):
    recharge = _recharge_for(request, recharge_id, PaymentMethod.BOLETO)
    if recharge is None or not recharge.boleto_barcode:
        return _not_found(request)
    context = _boleto_context(recharge)
    instructions = [
        "Pagável em qualquer banco até o vencimento.",
        f"Recarga de carteira {recharge.id}.",
    ]
    if context["test_mode"]:
        instructions.insert(0, "MODO DE TESTE: este boleto não tem valor e não deve ser pago.")
    document = boleto.boleto_pdf(
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
