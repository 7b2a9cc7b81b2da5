"""The clients' endpoints (docs/clients.md): list and search, create, read, update."""

from collections.abc import Mapping
from typing import Any

from django.db import models
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers

from agencies.models import Client
from agencies.payloads import BRAZIL, client_object
from agencies.selectors import client_get, client_list
from agencies.services import client_create, client_update
from api.apis import ApiView, envelope
from api.fields import (
    PHONE_MESSAGE,
    PHONE_PATTERN,
    EmailAddressField,
    MetadataField,
    PatternField,
    PlainTextField,
)
from api.pagination import PaginationFilterSerializer, PaginationSerializer, paginate
from api.schema import IDEMPOTENCY_KEY_PARAMETER, enveloped, error_response
from api.serializers import FirstProblemSerializer
from core.addresses import cep_compact, state_compact
from core.metadata import (
    MAX_METADATA_KEY_LENGTH,
    MAX_METADATA_KEYS,
    MAX_METADATA_VALUE_LENGTH,
    metadata_merged,
    metadata_problem,
)
from core.tax_ids import tax_id_compact

MAX_QUERY_LENGTH = 100


def _max_length(name: str) -> int:
    """The length of a client's column: what the API takes."""
    field = Client._meta.get_field(name)
    assert isinstance(field, models.CharField) and field.max_length is not None
    return field.max_length


# A CPF (`390.533.447-05`) or a CNPJ (`11.222.333/0001-81`), each with or without its
# punctuation. The check digits are checked after (core.tax_ids).
TAX_ID_PATTERN = (
    r"^(?:[0-9]{3}\.?[0-9]{3}\.?[0-9]{3}-?[0-9]{2}"
    r"|[0-9]{2}\.?[0-9]{3}\.?[0-9]{3}/?[0-9]{4}-?[0-9]{2})$"
)
TAX_ID_MESSAGE = (
    "Not a valid CPF or CNPJ: 11 digits (123.456.789-09) or 14 (12.345.678/0001-95), "
    "with or without the punctuation, with valid check digits."
)


class ClearablePatternField(PatternField):
    """A PatternField that also takes "" (a cleared value; the schema's `oneOf`)."""

    def __init__(self, regex: str, **kwargs):
        super().__init__(regex, allow_blank=True, **kwargs)

    def run_validation(self, data=serializers.empty) -> str:
        return "" if data == "" else super().run_validation(data)


class TaxIdField(ClearablePatternField):
    """A CPF or a numeric CNPJ with valid check digits: its digits ("" clears it)."""

    def __init__(self, **kwargs):
        super().__init__(TAX_ID_PATTERN, message=TAX_ID_MESSAGE, **kwargs)

    def run_validation(self, data=serializers.empty) -> str:
        value = super().run_validation(data)
        if not value:
            return ""
        digits = tax_id_compact(value)
        if digits is None:
            raise serializers.ValidationError(TAX_ID_MESSAGE)
        return digits


def _optional(max_length: int, help_text: str) -> PlainTextField:
    return PlainTextField(
        max_length=max_length, required=False, allow_null=True, help_text=help_text
    )


# Comments, not a docstring: the schema would show it as the input's description.
# The fields of a client, checked in the order of `check_order`, the first problem answered
# and named (`400 invalid_request`, `details: {"tax_id": ...}`). null clears an optional field
# ("" too). In Brazil (country BR, the default) the postal code is a CEP and the state a UF.
class ClientFieldsSerializer(FirstProblemSerializer):
    full_name = PlainTextField(
        max_length=_max_length("full_name"),
        help_text="The client's name: a person's (as on their documents) or a company's.",
    )
    email = EmailAddressField(
        max_length=_max_length("email"),
        help_text="Unique among the team's clients of this mode; kept in lower case. Bookings "
        "whose lead passenger has this e-mail are linked to this client.",
    )
    phone_number = ClearablePatternField(
        PHONE_PATTERN,
        message=PHONE_MESSAGE,
        required=False,
        allow_null=True,
        help_text="Country code and ASCII digits: +5511987654321.",
    )
    tax_id = TaxIdField(
        required=False,
        allow_null=True,
        help_text="CPF (a person's) or CNPJ (a company's), with valid check digits, with or "
        "without its punctuation. Answered formatted (390.533.447-05), stored as digits.",
    )
    country = PatternField(
        r"^[A-Z]{2}$",
        message="ISO 3166-1 alpha-2, e.g. BR.",
        required=False,
        help_text="ISO 3166-1 alpha-2 code of the address's country; BR when not given.",
    )
    postal_code = _optional(
        _max_length("postal_code"),
        "In Brazil a CEP, 8 digits with or without the dash (01310-100), answered with it.",
    )
    street = _optional(_max_length("street"), "Street (logradouro).")
    street_number = _optional(_max_length("street_number"), "Number on the street (or S/N).")
    complement = _optional(_max_length("complement"), "Apartment, suite, floor.")
    district = _optional(_max_length("district"), "District (bairro).")
    city = _optional(_max_length("city"), "City.")
    state = _optional(
        _max_length("state"),
        "In Brazil the UF, two letters (SP, RJ), kept in capitals; elsewhere as written.",
    )
    metadata = MetadataField(
        required=False,
        allow_null=True,
        help_text=f"The agency's own data: at most {MAX_METADATA_KEYS} keys of at most "
        f"{MAX_METADATA_KEY_LENGTH} characters, string values of at most "
        f'{MAX_METADATA_VALUE_LENGTH}. A key given "" is removed (an update keeps the keys '
        "it does not name; null removes them all).",
    )

    check_order = (
        "full_name",
        "email",
        "phone_number",
        "tax_id",
        "country",
        "postal_code",
        "street",
        "street_number",
        "complement",
        "district",
        "city",
        "state",
        "metadata",
    )
    # Given null: cleared, as if "" was given.
    clearable = frozenset(check_order) - {"full_name", "email", "country", "metadata"}

    # The country the address is checked for: the one given, else the stored one.
    country_of_address: str = BRAZIL

    def validate_country(self, country: str) -> str:
        self.country_of_address = country
        return country

    def validate_postal_code(self, postal_code: str) -> str:
        if self.country_of_address != BRAZIL or not postal_code:
            return postal_code
        cep = cep_compact(postal_code)
        if cep is None:
            raise serializers.ValidationError("Not a CEP: 8 digits, e.g. 01310-100.")
        return cep

    def validate_state(self, state: str) -> str:
        if self.country_of_address != BRAZIL or not state:
            return state
        uf = state_compact(state)
        if uf is None:
            raise serializers.ValidationError("Not a Brazilian state: a UF such as SP or RJ.")
        return uf

    @classmethod
    def cleared(cls, data: Any) -> dict:
        """The body as an object, null read as "" for the optional fields."""
        body = dict(data) if isinstance(data, Mapping) else {}
        return {k: "" if v is None and k in cls.clearable else v for k, v in body.items()}


@extend_schema_serializer(component_name="Client")
class ClientSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="cli_…")
    live_mode = serializers.BooleanField()
    full_name = serializers.CharField()
    email = serializers.EmailField()
    phone_number = serializers.CharField(allow_null=True)
    tax_id = serializers.CharField(
        allow_null=True,
        help_text="Formatted: 390.533.447-05 (CPF) or 11.222.333/0001-81 (CNPJ).",
    )
    tax_id_type = serializers.ChoiceField(choices=["cpf", "cnpj"], allow_null=True)
    postal_code = serializers.CharField(allow_null=True, help_text="A CEP as 01310-100.")
    street = serializers.CharField(allow_null=True)
    street_number = serializers.CharField(allow_null=True)
    complement = serializers.CharField(allow_null=True)
    district = serializers.CharField(allow_null=True)
    city = serializers.CharField(allow_null=True)
    state = serializers.CharField(allow_null=True)
    country = serializers.CharField(help_text="ISO 3166-1 alpha-2.")
    metadata = serializers.DictField(child=serializers.CharField())
    created_at = serializers.DateTimeField()


CLIENT_ENVELOPE = enveloped(ClientSerializer, name="ClientEnvelope")
CREATE_EXAMPLE = OpenApiExample(
    "A person with a CPF and an address",
    request_only=True,
    value={
        "full_name": "Ana Souza",
        "email": "ana.souza@example.com",
        "phone_number": "+5511987654321",
        "tax_id": "390.533.447-05",
        "postal_code": "01310-100",
        "street": "Avenida Paulista",
        "street_number": "1578",
        "complement": "Apto 42",
        "district": "Bela Vista",
        "city": "São Paulo",
        "state": "SP",
        "metadata": {"crm_id": "C-1029"},
    },
)
UPDATE_EXAMPLE = OpenApiExample(
    "A new phone, one metadata key set and one removed",
    request_only=True,
    value={"phone_number": "+5521998765432", "metadata": {"segment": "corporate", "crm_id": ""}},
)


class ClientsApi(ApiView):
    permission_resource = "clients"

    class FilterSerializer(PaginationFilterSerializer):
        q = serializers.CharField(
            required=False,
            max_length=MAX_QUERY_LENGTH,
            trim_whitespace=False,
            help_text="Search: part of the name (accents and case aside), of the e-mail, or of "
            "the CPF/CNPJ (digits, with or without the punctuation).",
        )

    @extend_schema_serializer(component_name="ClientCreate")
    class InputSerializer(ClientFieldsSerializer):
        def to_internal_value(self, data) -> dict:
            # What is not given is blank, and the country Brazil.
            body = {**dict.fromkeys(self.clearable, ""), "country": BRAZIL, **self.cleared(data)}
            fields = super().to_internal_value(body)
            fields["metadata"] = metadata_merged({}, fields["metadata"])  # "" is no key
            return fields

    @extend_schema(
        operation_id="clients_list",
        tags=["Clients"],
        parameters=[FilterSerializer],
        responses={
            200: enveloped(
                ClientSerializer(many=True),
                name="ClientListEnvelope",
                pagination=PaginationSerializer(),
            ),
            400: error_response("Invalid request parameters"),
        },
    )
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        data = filters.validated_data
        clients = client_list(
            team=request.user.team, live_mode=request.user.live_mode, q=data.get("q", "")
        )
        items, pagination = paginate(clients, page=data["page"], limit=data["limit"])
        return envelope([client_object(c) for c in items], pagination=pagination)

    @extend_schema(
        operation_id="clients_create",
        tags=["Clients"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=InputSerializer,
        examples=[CREATE_EXAMPLE],
        responses={
            201: CLIENT_ENVELOPE,
            400: error_response("Invalid request parameters (`details` names the field)"),
            409: error_response("client_email_taken: another client of this mode has the e-mail"),
        },
    )
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        client = client_create(
            team=request.user.team, live_mode=request.user.live_mode, **serializer.validated_data
        )
        return envelope(client_object(client), status=201)


class ClientDetailApi(ApiView):
    permission_resource = "clients"

    # Only what the body names is checked and changed; the address is checked for the
    # country it will have. The context gives the stored `client`.
    @extend_schema_serializer(component_name="ClientUpdate")
    class InputSerializer(ClientFieldsSerializer):
        def to_internal_value(self, data) -> dict:
            if not isinstance(data, Mapping):
                raise serializers.ValidationError("Must be a JSON object.")
            client: Client = self.context["client"]
            body = self.cleared(data)
            self.country_of_address = client.country
            changes = {}
            for name in self.check_order:
                if name in body:
                    changes[name] = self.checked(name, body)
            if "country" in changes:  # the stored address, for its new country
                stored = serializers.CharField(allow_blank=True, trim_whitespace=False)
                for name in ("postal_code", "state"):
                    if name not in changes:
                        changes[name] = self.check(name, stored, getattr(client, name))
            if "metadata" in changes:
                merged = metadata_merged(client.metadata, changes["metadata"])
                problem = metadata_problem(merged)  # the keys kept and added, at most 50
                if problem is not None:
                    raise serializers.ValidationError({"metadata": problem[1]})
                changes["metadata"] = merged
            return changes

    @extend_schema(
        operation_id="clients_get",
        tags=["Clients"],
        responses={
            200: CLIENT_ENVELOPE,
            404: error_response("Client not found"),
        },
    )
    def get(self, request, client_id):
        client = client_get(
            team=request.user.team, live_mode=request.user.live_mode, client_id=client_id
        )
        return envelope(client_object(client))

    @extend_schema(
        operation_id="clients_update",
        tags=["Clients"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=InputSerializer,
        examples=[UPDATE_EXAMPLE],
        responses={
            200: CLIENT_ENVELOPE,
            400: error_response("Invalid request parameters (`details` names the field)"),
            404: error_response("Client not found"),
            409: error_response("client_email_taken: another client of this mode has the e-mail"),
        },
    )
    def patch(self, request, client_id):
        client = client_get(
            team=request.user.team, live_mode=request.user.live_mode, client_id=client_id
        )
        serializer = self.InputSerializer(data=request.data, context={"client": client})
        serializer.is_valid(raise_exception=True)
        return envelope(client_object(client_update(client=client, **serializer.validated_data)))
