"""The wallet's API and event objects: what a transaction and a recharge look like on the wire."""

from decimal import Decimal
from typing import Any

from django.conf import settings

from core.money import fmt
from core.timestamps import iso_utc
from wallet.models import PaymentMethod, Recharge, Reversal, Transaction, Withdrawal
from wallet.page_tokens import payment_page_token


def transaction_object(txn: Transaction) -> dict:
    """The wire shape of a ledger transaction (API and `wallet.*` events)."""
    data = {
        "id": txn.id,
        "type": txn.type,
        "amount": fmt(txn.amount),
        "currency": txn.currency,
        "description": txn.description,
        "reference_type": txn.reference_type,
        "reference_id": txn.reference_id,
        "balance_after": fmt(txn.balance_after) if txn.balance_after is not None else None,
        "created_at": iso_utc(txn.created_at),
    }
    if txn.payment_method:
        data["payment_method"] = txn.payment_method
    return data


def recharge_object(recharge: Recharge, *, with_payment: bool = False) -> dict:
    data: dict[str, Any] = {
        "id": recharge.id,
        "amount": fmt(recharge.amount),
        "currency": recharge.currency,
        "status": recharge.status,
        "payment_method": recharge.payment_method,
        "created_at": iso_utc(recharge.created_at),
        "paid_at": iso_utc(recharge.paid_at),
        "transaction_id": recharge.transaction_id,
    }
    if with_payment:
        data["payment"] = payment_instructions(recharge)
    return data


def payment_instructions(recharge: Recharge) -> dict:
    base = settings.PUBLIC_BASE_URL
    token = payment_page_token(recharge.id)
    if recharge.payment_method == PaymentMethod.PIX:
        return {
            "pix_copy_paste": recharge.pix_copy_paste,
            "pix_qrcode_url": f"{base}/api/v1/pix/qr/{recharge.id}?token={token}",
            "expires_at": iso_utc(recharge.expires_at),
        }
    return {
        "boleto_barcode": recharge.boleto_barcode,
        "boleto_linha_digitavel": recharge.boleto_linha_digitavel,
        "boleto_url": f"{base}/api/v1/boleto/{recharge.id}?token={token}",
        "boleto_pdf_url": f"{base}/api/v1/boleto/{recharge.id}/pdf?token={token}",
        "due_date": recharge.boleto_due_date.isoformat() if recharge.boleto_due_date else None,
        "expires_at": iso_utc(recharge.expires_at),
    }


def reversal_object(reversal: Reversal, *, debt_amount: Decimal) -> dict:
    """The `wallet.reversal` event's object: the recharge taken back, how much and why, the
    debit (null when the balance was 0.00), the debt it created and still owes, the credit back
    of a chargeback cancelled, and the wallet's debt and restriction after it."""
    return {
        "id": reversal.id,
        "object": "reversal",
        "reason": reversal.reason,
        "status": reversal.status,
        "amount": fmt(reversal.amount),
        "currency": "BRL",
        "recharge": recharge_object(reversal.recharge),
        "transaction": transaction_object(reversal.transaction) if reversal.transaction else None,
        "debt_created": fmt(reversal.debt_created),
        "debt_outstanding": fmt(reversal.debt_outstanding),
        "credit_transaction": (
            transaction_object(reversal.credit_transaction) if reversal.credit_transaction else None
        ),
        "wallet": {"debt_amount": fmt(debt_amount), "restricted": debt_amount > 0},
        "created_at": iso_utc(reversal.created_at),
        "cancelled_at": iso_utc(reversal.cancelled_at),
    }


def withdrawal_object(withdrawal: Withdrawal) -> dict:
    """The wire shape of a withdrawal (API and `wallet.withdrawal.*` events)."""
    return {
        "id": withdrawal.id,
        "amount": fmt(withdrawal.amount),
        "currency": withdrawal.currency,
        "status": withdrawal.status,
        "destination": {
            "type": "pix",
            "pix_key_type": withdrawal.pix_key_type,
            "pix_key": withdrawal.pix_key,
            "holder_name": withdrawal.holder_name or None,
            "holder_tax_id": withdrawal.holder_tax_id or None,
        },
        "failure_code": withdrawal.failure_code or None,
        "failure_reason": withdrawal.failure_reason or None,
        "transaction_id": withdrawal.debit_transaction_id,
        "refund_transaction_id": withdrawal.refund_transaction_id,
        "created_at": iso_utc(withdrawal.created_at),
        "completed_at": iso_utc(withdrawal.completed_at),
        "failed_at": iso_utc(withdrawal.failed_at),
    }
