from typing import cast

from drf_spectacular.utils import (
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers

from api.apis import ApiView, envelope
from api.fields import (
    QueryChoicesField,
    QueryDateField,
    StrictCharField,
    StringChoiceField,
    one_of_message,
)
from api.pagination import PaginationFilterSerializer, PaginationSerializer, paginate
from api.schema import IDEMPOTENCY_KEY_PARAMETER, enveloped, error_response
from core.exceptions import ApplicationError
from core.money import parse_amount
from wallet.models import PaymentMethod, PixKeyType, Recharge, Transaction, Withdrawal
from wallet.selectors import (
    recharge_get,
    transaction_list,
    transaction_summary,
    wallet_balance,
    withdrawal_get,
    withdrawal_list,
)
from wallet.services import (
    recharge_cancel,
    recharge_complete,
    recharge_create,
    recharge_object,
    transaction_object,
    withdrawal_create,
    withdrawal_object,
)
from wallet.services.recharges import MAX_AMOUNT, MIN_AMOUNT


class BalanceSerializer(serializers.Serializer):
    balance = serializers.CharField(help_text="Balance in BRL (5000.00, constant, in test mode).")
    currency = serializers.CharField()
    available_credit = serializers.CharField(help_text="balance - pending_amount, at least 0.")
    pending_amount = serializers.CharField(help_text="BRL cost of pending hold bookings.")
    last_transaction_at = serializers.DateTimeField(allow_null=True)
    debt_amount = serializers.CharField(
        help_text="What reversed recharges (refunds, chargebacks) took that the balance could "
        'not cover: paid first by the next credits. "0.00" when none (always in test mode).'
    )
    restricted = serializers.BooleanField(
        help_text="True while debt_amount is above 0.00: new bookings, hold confirmations, "
        "flight changes that cost something, extras and withdrawals answer 422 "
        "wallet_restricted."
    )


class TransactionSerializer(serializers.Serializer):
    id = serializers.CharField()
    type = serializers.ChoiceField(choices=Transaction.Type.values)
    amount = serializers.CharField()
    currency = serializers.CharField()
    description = serializers.CharField()
    reference_type = serializers.ChoiceField(choices=Transaction.ReferenceType.values)
    reference_id = serializers.CharField()
    balance_after = serializers.CharField()
    payment_method = serializers.ChoiceField(
        choices=PaymentMethod.values, required=False, help_text="Only on recharge credits."
    )
    created_at = serializers.DateTimeField()


class PaymentInstructionsSerializer(serializers.Serializer):
    pix_copy_paste = serializers.CharField(required=False)
    pix_qrcode_url = serializers.URLField(required=False)
    boleto_barcode = serializers.CharField(required=False)
    boleto_linha_digitavel = serializers.CharField(required=False)
    boleto_url = serializers.URLField(required=False)
    boleto_pdf_url = serializers.URLField(required=False)
    due_date = serializers.DateField(required=False, allow_null=True)
    expires_at = serializers.DateTimeField()


class RechargeSerializer(serializers.Serializer):
    id = serializers.CharField()
    amount = serializers.CharField()
    currency = serializers.CharField()
    status = serializers.ChoiceField(choices=Recharge.Status.values)
    payment_method = serializers.ChoiceField(choices=PaymentMethod.values)
    payment = PaymentInstructionsSerializer(
        required=False, help_text="Payment instructions, while pending."
    )
    created_at = serializers.DateTimeField()
    paid_at = serializers.DateTimeField(allow_null=True)
    transaction_id = serializers.CharField(allow_null=True)


class WalletBalanceApi(ApiView):
    permission_resource = "wallet"

    @extend_schema(
        operation_id="wallet_balance",
        tags=["Wallet"],
        responses={200: enveloped(BalanceSerializer, name="BalanceEnvelope")},
    )
    def get(self, request):
        return envelope(wallet_balance(team=request.user.team, live_mode=request.user.live_mode))


class WalletTransactionsApi(ApiView):
    permission_resource = "wallet"

    class FilterSerializer(PaginationFilterSerializer):
        type = serializers.ChoiceField(choices=Transaction.Type.values, required=False)
        start_date = QueryDateField(required=False, help_text="First day, America/Sao_Paulo.")
        end_date = QueryDateField(
            required=False,
            help_text="Last day (inclusive), America/Sao_Paulo.",
        )

        def validate(self, attrs):
            start, end = attrs.get("start_date"), attrs.get("end_date")
            if start and end and start > end:
                raise serializers.ValidationError({"end_date": "Must not be before start_date."})
            return attrs

    @extend_schema(
        operation_id="wallet_transactions",
        tags=["Wallet"],
        parameters=[FilterSerializer],
        responses={
            200: enveloped(
                inline_serializer(
                    "TransactionPage",
                    {
                        "transactions": TransactionSerializer(many=True),
                        "pagination": PaginationSerializer(),
                        "summary": inline_serializer(
                            "TransactionSummary",
                            {
                                "total_credits": serializers.CharField(),
                                "total_debits": serializers.CharField(),
                                "period_start": serializers.DateField(allow_null=True),
                                "period_end": serializers.DateField(allow_null=True),
                            },
                        ),
                    },
                ),
                name="TransactionPageEnvelope",
            ),
            400: error_response("Invalid request parameters"),
        },
    )
    def get(self, request):
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        filters = {k: params.validated_data.get(k) for k in ("type", "start_date", "end_date")}
        queryset = transaction_list(
            team=request.user.team, live_mode=request.user.live_mode, **filters
        )
        items, pagination = paginate(
            queryset, page=params.validated_data["page"], limit=params.validated_data["limit"]
        )
        summary = transaction_summary(
            queryset, start_date=filters["start_date"], end_date=filters["end_date"]
        )
        return envelope(
            {
                "transactions": [transaction_object(t) for t in items],
                "pagination": pagination,
                "summary": summary,
            }
        )


# What parse_amount and recharge_create accept: at most 12 integer digits (leading zeros
# included) and 2 fractional ones, from MIN_AMOUNT to MAX_AMOUNT (100.00 to 50000.00;
# wallet/tests/test_recharge_amount_schema.py checks that they agree).
RECHARGE_AMOUNT_PATTERN = (
    r"^(?:(?:0{0,9}[1-9][0-9]{2}|0{0,8}[1-9][0-9]{3}|0{0,7}[1-4][0-9]{4})(?:\.[0-9]{1,2})?"
    r"|0{0,7}50000(?:\.0{1,2})?)$"
)


@extend_schema_field({"type": "string", "pattern": RECHARGE_AMOUNT_PATTERN})
class RechargeAmountField(StrictCharField):
    """The amount's text as given (not stripped: "300\n" is not an amount); the serializer
    reads it, and recharge_create keeps it within its limits."""


class RechargeCreateApi(ApiView):
    permission_resource = "wallet"

    # Each field's type is checked first (every problem at once); then the amount, the
    # currency and (by recharge_create, with its own codes) the method and the limits.
    @extend_schema_serializer(component_name="RechargeCreate")
    class InputSerializer(serializers.Serializer):
        amount = RechargeAmountField(
            trim_whitespace=False,
            max_length=15,
            help_text=f'Decimal string, e.g. "250.00"; {MIN_AMOUNT} to {MAX_AMOUNT}.',
        )
        currency = StringChoiceField(choices=["BRL"], help_text="Always BRL.")
        payment_method = StringChoiceField(choices=PaymentMethod.values)

        def validate(self, attrs: dict) -> dict:
            amount = parse_amount(attrs["amount"])
            if amount is None:
                raise serializers.ValidationError(
                    {
                        "amount": "Must be a decimal string with at most two fractional "
                        'digits, e.g. "250.00".'
                    }
                )
            currencies = list(cast(StringChoiceField, self.fields["currency"]).choices)
            if attrs["currency"] not in currencies:
                raise serializers.ValidationError({"currency": one_of_message(currencies)})
            return {"amount": amount, "payment_method": attrs["payment_method"]}

    @extend_schema(
        operation_id="wallet_recharge_create",
        tags=["Wallet"],
        request=InputSerializer,
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        responses={
            201: enveloped(RechargeSerializer, name="RechargeCreatedEnvelope"),
            400: error_response("Invalid amount, currency or payment method"),
            422: error_response("Daily limit exceeded"),
        },
    )
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        recharge = recharge_create(
            team=request.user.team, live_mode=request.user.live_mode, **serializer.validated_data
        )
        return envelope(recharge_object(recharge, with_payment=True), status=201)


class RechargeDetailApi(ApiView):
    permission_resource = "wallet"

    @extend_schema(
        operation_id="wallet_recharge_get",
        tags=["Wallet"],
        responses={
            200: enveloped(RechargeSerializer, name="RechargeEnvelope"),
            404: error_response("Recharge not found"),
        },
    )
    def get(self, request, recharge_id):
        recharge = recharge_get(
            team=request.user.team, live_mode=request.user.live_mode, recharge_id=recharge_id
        )
        return envelope(recharge_object(recharge, with_payment=recharge.status == "pending"))

    @extend_schema(
        operation_id="wallet_recharge_cancel",
        tags=["Wallet"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        responses={
            200: enveloped(RechargeSerializer, name="RechargeCancelEnvelope"),
            404: error_response("Recharge not found"),
            409: error_response("Only a pending recharge can be cancelled"),
        },
    )
    def delete(self, request, recharge_id):
        recharge = recharge_get(
            team=request.user.team, live_mode=request.user.live_mode, recharge_id=recharge_id
        )
        return envelope(recharge_object(recharge_cancel(recharge=recharge)))


class TestModeOnly(ApplicationError):
    status_code = 403
    code = "test_mode_only"
    message = "Payments can be simulated only with a test key"


class RechargeSimulatePaymentApi(ApiView):
    permission_resource = "wallet"

    @extend_schema(
        operation_id="wallet_recharge_simulate_payment",
        tags=["Wallet"],
        request=None,
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        description="Test mode only: pays a sandbox recharge as if the payer had paid it.",
        responses={
            200: enveloped(RechargeSerializer, name="RechargeSimulatedEnvelope"),
            403: error_response("Live key"),
            404: error_response("Recharge not found"),
        },
    )
    def post(self, request, recharge_id):
        if request.user.live_mode:
            raise TestModeOnly()
        recharge = recharge_get(team=request.user.team, live_mode=False, recharge_id=recharge_id)
        return envelope(recharge_object(recharge_complete(recharge=recharge)))


# --- Withdrawals to the team's own account (docs/withdrawals.md) ---------------------------------


class WithdrawalDestinationSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["pix"])
    pix_key_type = serializers.ChoiceField(choices=PixKeyType.values)
    pix_key = serializers.CharField(help_text="The team's payout PIX key when it was requested.")
    holder_name = serializers.CharField(
        allow_null=True, help_text="The key's holder, as the payment provider reports it."
    )
    holder_tax_id = serializers.CharField(
        allow_null=True,
        help_text="The holder's CNPJ or CPF as the provider reports it (it may mask digits).",
    )


class WithdrawalSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="wdr_…")
    amount = serializers.CharField()
    currency = serializers.CharField()
    status = serializers.ChoiceField(choices=Withdrawal.Status.values)
    destination = WithdrawalDestinationSerializer()
    failure_code = serializers.ChoiceField(
        choices=Withdrawal.FailureCode.values,
        allow_null=True,
        help_text="Why it failed or was cancelled (credited back): `holder_mismatch` (the key's "
        "holder is not the team's CNPJ/CPF), `refused` (the provider refused the request), "
        "`transfer_failed`, `transfer_cancelled`.",
    )
    failure_reason = serializers.CharField(
        allow_null=True, help_text="The failure in words: the provider's, or ours."
    )
    transaction_id = serializers.CharField(help_text="The wallet's debit (txn_…).")
    refund_transaction_id = serializers.CharField(
        allow_null=True, help_text="The credit back of a failed or cancelled withdrawal."
    )
    created_at = serializers.DateTimeField()
    completed_at = serializers.DateTimeField(allow_null=True)
    failed_at = serializers.DateTimeField(allow_null=True)


@extend_schema_field({"type": "string", "pattern": r"^[0-9]{1,12}(\.[0-9]{1,2})?$"})
class WithdrawalAmountField(StrictCharField):
    """The amount's text as given; the serializer reads it, withdrawal_create checks it."""


class WithdrawalListApi(ApiView):
    permission_resource = "wallet"

    class FilterSerializer(PaginationFilterSerializer):
        status = QueryChoicesField(
            choices=Withdrawal.Status.values,
            required=False,
            help_text="One status or several, comma-separated.",
        )

    @extend_schema_serializer(component_name="WithdrawalCreate")
    class InputSerializer(serializers.Serializer):
        amount = WithdrawalAmountField(
            trim_whitespace=False,
            max_length=15,
            help_text='Decimal string, e.g. "250.00"; at least WALLET_WITHDRAWAL_MIN_AMOUNT '
            "(10.00), within the day's limit (WALLET_WITHDRAWAL_DAILY_LIMIT, 50000.00).",
        )

        def validate(self, attrs: dict) -> dict:
            amount = parse_amount(attrs["amount"])
            if amount is None:
                raise serializers.ValidationError(
                    {
                        "amount": "Must be a decimal string with at most two fractional "
                        'digits, e.g. "250.00".'
                    }
                )
            return {"amount": amount}

    @extend_schema(
        operation_id="wallet_withdrawals_list",
        tags=["Wallet"],
        parameters=[FilterSerializer],
        responses={
            200: enveloped(
                serializers.ListField(child=WithdrawalSerializer()),
                name="WithdrawalListEnvelope",
                pagination=PaginationSerializer(),
            ),
            400: error_response("Invalid request parameters"),
        },
    )
    def get(self, request):
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        queryset = withdrawal_list(
            team=request.user.team, live_mode=request.user.live_mode, statuses=data.get("status")
        )
        items, pagination = paginate(queryset, page=data["page"], limit=data["limit"])
        return envelope([withdrawal_object(w) for w in items], pagination=pagination)

    @extend_schema(
        operation_id="wallet_withdrawals_create",
        tags=["Wallet"],
        request=InputSerializer,
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        responses={
            201: enveloped(WithdrawalSerializer, name="WithdrawalCreatedEnvelope"),
            400: error_response("Invalid amount, or below the minimum"),
            422: error_response(
                "Insufficient balance, daily limit exceeded, no payout key or no CNPJ/CPF"
            ),
        },
    )
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        withdrawal = withdrawal_create(
            team=request.user.team, live_mode=request.user.live_mode, **serializer.validated_data
        )
        return envelope(withdrawal_object(withdrawal), status=201)


class WithdrawalDetailApi(ApiView):
    permission_resource = "wallet"

    @extend_schema(
        operation_id="wallet_withdrawals_get",
        tags=["Wallet"],
        responses={
            200: enveloped(WithdrawalSerializer, name="WithdrawalEnvelope"),
            404: error_response("Withdrawal not found"),
        },
    )
    def get(self, request, withdrawal_id):
        withdrawal = withdrawal_get(
            team=request.user.team, live_mode=request.user.live_mode, withdrawal_id=withdrawal_id
        )
        return envelope(withdrawal_object(withdrawal))
