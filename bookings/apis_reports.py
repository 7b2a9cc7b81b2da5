"""The sales and commission report over the API (docs/reports.md): the period's bookings with
their money as JSON, and the NFS-e export of the agency's service as CSV. Both for the key's
team and mode; dates are São Paulo days, both included, at most MAX_REPORT_DAYS apart."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers

from api.apis import ApiView, envelope
from api.fields import MAX_QUERY_DATE, MIN_QUERY_DATE, QueryDateField
from api.pagination import PaginationFilterSerializer, PaginationSerializer, page_pagination
from api.schema import enveloped, error_response
from bookings.models import Booking
from bookings.report_admin import nfse_response
from bookings.reports import MAX_REPORT_DAYS, report_period, sales_report
from core.money import fmt
from core.timestamps import iso_utc
from wallet.display import StatementPeriodError

SIGNED_DECIMAL = r"^-?[0-9]+\.[0-9]{2}$"  # ASCII digits


def signed_money(help_text: str) -> serializers.RegexField:
    return serializers.RegexField(SIGNED_DECIMAL, help_text=f"{help_text} BRL decimal string.")


# --- The answer ---------------------------------------------------------------------------------


class SalesReportClientSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The client (`cli_…`).")
    full_name = serializers.CharField()
    tax_id = serializers.CharField(
        allow_null=True, help_text="CPF (11 digits) or CNPJ (14), digits only; null if unknown."
    )


class SalesReportMoneySerializer(serializers.Serializer):
    client_amount = signed_money("The sale: what the customer paid (cost + markup + fee).")
    base_cost_brl = signed_money("The sale: what the wallet was debited.")
    markup_amount = signed_money("The sale: the agency's markup.")
    fee_amount = signed_money("The sale: the agency's fee.")
    changes_extras_client_amount = signed_money(
        "Changes of flights and extras bought after the sale: what the customer paid "
        "(negative: a cheaper change the customer gets back)."
    )
    changes_extras_cost_brl = signed_money(
        "Their wallet movements: debits less credits (negative: refunded)."
    )
    changes_extras_revenue = signed_money("Their markup and fee.")
    refund_amount = signed_money("The booking's refunds credited to the wallet.")
    refunded_revenue = signed_money(
        "The markup and fee given back to the customer with those refunds."
    )
    net_revenue = signed_money(
        "What the agency keeps: markup + fee + changes_extras_revenue − refunded_revenue."
    )


class SalesReportRowSerializer(SalesReportMoneySerializer):
    booking_id = serializers.CharField(help_text="The booking (`ord_…`).")
    booking_reference = serializers.CharField(
        allow_null=True, help_text="The airline's locator; null until the booking has one."
    )
    status = serializers.ChoiceField(choices=Booking.Status.values)
    client = SalesReportClientSerializer()
    route = serializers.CharField(help_text='The airports in order, e.g. "GRU → LIS → GRU".')
    travel_date = serializers.DateField(
        allow_null=True, help_text="The first flight's day, at its airport."
    )
    sold_at = serializers.DateTimeField(
        allow_null=True, help_text="The sale's debit, when it is in the period (UTC)."
    )


class SalesReportTotalsSerializer(SalesReportMoneySerializer):
    bookings = serializers.IntegerField(help_text="Bookings in the report.")
    sales = serializers.IntegerField(help_text="Of them, those sold in the period.")
    wallet_debits = signed_money("The wallet's booking debits of the period (the statement's).")
    wallet_credits = signed_money("The wallet's booking credits of the period.")
    currency = serializers.CharField(help_text="Always BRL.")


class SalesReportPeriodSerializer(serializers.Serializer):
    start_date = serializers.DateField()
    end_date = serializers.DateField()
    time_zone = serializers.CharField(help_text="America/Sao_Paulo: the days' zone.")


class SalesReportSerializer(serializers.Serializer):
    period = SalesReportPeriodSerializer()
    live_mode = serializers.BooleanField()
    totals = SalesReportTotalsSerializer(help_text="Of the whole period, every page.")
    rows = SalesReportRowSerializer(many=True, help_text="This page's bookings.")
    pagination = PaginationSerializer()


def _money(values: dict) -> dict:
    return {name: fmt(value) for name, value in values.items()}


def row_object(row) -> dict:
    booking = row.booking
    return {
        "booking_id": booking.pk,
        "booking_reference": booking.booking_reference or None,
        "status": booking.status,
        "client": {
            "id": booking.client_id,
            "full_name": booking.client.full_name,
            "tax_id": booking.client.tax_id or None,
        },
        "route": row.route,
        "travel_date": row.travel_date.isoformat() if row.travel_date else None,
        "sold_at": iso_utc(row.sold_at),
        **_money(row.money()),
    }


def report_object(report, *, page: int, limit: int) -> dict:
    totals = report.totals
    count = len(report.rows)
    first = (page - 1) * limit
    return {
        "period": {
            "start_date": report.period.start.isoformat(),
            "end_date": report.period.end.isoformat(),
            "time_zone": "America/Sao_Paulo",
        },
        "live_mode": report.live_mode,
        "totals": {
            "bookings": totals.bookings,
            "sales": totals.sales,
            **_money(totals.money()),
            "wallet_debits": fmt(totals.wallet_debits),
            "wallet_credits": fmt(totals.wallet_credits),
            "currency": "BRL",
        },
        "rows": [row_object(row) for row in report.rows[first : first + limit]],
        "pagination": page_pagination(page=page, limit=limit, total=count),
    }


# --- The query ----------------------------------------------------------------------------------


class ReportPeriodMixin(serializers.Serializer):
    start_date = QueryDateField(help_text="First day, America/Sao_Paulo.")
    end_date = QueryDateField(
        help_text=f"Last day (inclusive), America/Sao_Paulo; at most {MAX_REPORT_DAYS} days "
        "from start_date."
    )

    def validate(self, attrs):
        attrs = super().validate(attrs)
        try:
            attrs["period"] = report_period(
                start=attrs["start_date"],
                end=attrs["end_date"],
                earliest=MIN_QUERY_DATE,
                latest=MAX_QUERY_DATE,
            )
        except StatementPeriodError as error:  # the days themselves are the field's to check
            messages = {
                "start_after_end": "Must not be before start_date.",
                "too_long": f"At most {MAX_REPORT_DAYS} days from start_date.",
            }
            raise serializers.ValidationError({"end_date": messages[error.code]}) from None
        return attrs


@extend_schema_serializer(component_name="SalesReportQuery")
class SalesReportFilterSerializer(ReportPeriodMixin, PaginationFilterSerializer):
    pass


@extend_schema_serializer(component_name="NfseExportQuery")
class NfseFilterSerializer(ReportPeriodMixin):
    def to_internal_value(self, data):
        blank = {name: ["May not be blank."] for name in self.fields if data.get(name) == ""}
        if blank:
            raise serializers.ValidationError(blank)
        return super().to_internal_value(data)


class SalesReportApi(ApiView):
    permission_resource = "reports"

    @extend_schema(
        operation_id="reports_sales",
        tags=["Reports"],
        parameters=[SalesReportFilterSerializer],
        responses={
            200: enveloped(SalesReportSerializer, name="SalesReportEnvelope"),
            400: error_response("Invalid dates (`details` names the field)"),
        },
    )
    def get(self, request):
        params = SalesReportFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        report = sales_report(
            team=request.user.team,
            live_mode=request.user.live_mode,
            period=params.validated_data["period"],
        )
        return envelope(
            report_object(
                report,
                page=params.validated_data["page"],
                limit=params.validated_data["limit"],
            )
        )


NFSE_EXAMPLE = (
    "\ufeffexternalReference;customer.name;customer.cpfCnpj;customer.email;serviceDescription;"
    "observations;value;deductions;effectiveDate;municipalServiceCode;municipalServiceName\r\n"
    "ord_01m84s0sqr83c1tmwt646fcae0;Ana Lima;529.982.247-25;ana.lima@example.com;"
    '"Intermediação na venda de passagem aérea: localizador SY7LWS, trecho GRU → BSB, '
    'viagem em 15/01/2027, 1 passageiro.";Deduções: valor repassado à companhia aérea pela '
    "passagem (reserva ord_01m84s0sqr83c1tmwt646fcae0).;646,75;565,23;2026-11-03;09.02;"
    "Agenciamento de viagens\r\n"
)


class NfseExportApi(ApiView):
    permission_resource = "reports"

    @extend_schema(
        operation_id="reports_nfse",
        tags=["Reports"],
        parameters=[NfseFilterSerializer],
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR,
                description="CSV (UTF-8 with a byte order mark, `;`-separated, decimal "
                "commas): a header of Asaas's invoice field names, then one invoice per line.",
                examples=[OpenApiExample("Two lines", value=NFSE_EXAMPLE, response_only=True)],
            ),
            400: error_response("Invalid dates (`details` names the field)"),
        },
    )
    def get(self, request):
        params = NfseFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        report = sales_report(
            team=request.user.team,
            live_mode=request.user.live_mode,
            period=params.validated_data["period"],
        )
        return nfse_response(report)
