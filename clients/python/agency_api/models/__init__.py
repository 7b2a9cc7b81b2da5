""" Contains all the data models used in inputs/outputs """

from .action_taken_enum import ActionTakenEnum
from .aircraft import Aircraft
from .airline_change import AirlineChange
from .airline_change_envelope import AirlineChangeEnvelope
from .airline_change_list_envelope import AirlineChangeListEnvelope
from .airline_credit import AirlineCredit
from .api_key_created_event import ApiKeyCreatedEvent
from .api_key_created_event_data import ApiKeyCreatedEventData
from .api_key_created_event_data_previous_attributes import ApiKeyCreatedEventDataPreviousAttributes
from .api_key_created_event_type import ApiKeyCreatedEventType
from .api_key_object import ApiKeyObject
from .api_key_object_object import ApiKeyObjectObject
from .api_key_object_permissions_type_0_item import ApiKeyObjectPermissionsType0Item
from .api_key_revoked_event import ApiKeyRevokedEvent
from .api_key_revoked_event_data import ApiKeyRevokedEventData
from .api_key_revoked_event_data_previous_attributes import ApiKeyRevokedEventDataPreviousAttributes
from .api_key_revoked_event_type import ApiKeyRevokedEventType
from .api_version_enum import ApiVersionEnum
from .available_actions_enum import AvailableActionsEnum
from .available_service import AvailableService
from .available_service_list import AvailableServiceList
from .available_service_metadata import AvailableServiceMetadata
from .baggage import Baggage
from .baggage_type_enum import BaggageTypeEnum
from .balance import Balance
from .balance_envelope import BalanceEnvelope
from .balance_payment_input_request import BalancePaymentInputRequest
from .balance_payment_input_type_enum import BalancePaymentInputTypeEnum
from .booking import Booking
from .booking_airline_change_detected_event import BookingAirlineChangeDetectedEvent
from .booking_airline_change_detected_event_data import BookingAirlineChangeDetectedEventData
from .booking_airline_change_detected_event_data_previous_attributes import BookingAirlineChangeDetectedEventDataPreviousAttributes
from .booking_airline_change_detected_event_type import BookingAirlineChangeDetectedEventType
from .booking_airline_change_event_object import BookingAirlineChangeEventObject
from .booking_available_service_list import BookingAvailableServiceList
from .booking_cancel_envelope import BookingCancelEnvelope
from .booking_cancelled_event import BookingCancelledEvent
from .booking_cancelled_event_data import BookingCancelledEventData
from .booking_cancelled_event_data_previous_attributes import BookingCancelledEventDataPreviousAttributes
from .booking_cancelled_event_type import BookingCancelledEventType
from .booking_change_envelope import BookingChangeEnvelope
from .booking_client import BookingClient
from .booking_confirm_envelope import BookingConfirmEnvelope
from .booking_confirm_input_request import BookingConfirmInputRequest
from .booking_confirmed import BookingConfirmed
from .booking_confirmed_event import BookingConfirmedEvent
from .booking_confirmed_event_data import BookingConfirmedEventData
from .booking_confirmed_event_data_previous_attributes import BookingConfirmedEventDataPreviousAttributes
from .booking_confirmed_event_type import BookingConfirmedEventType
from .booking_create_input_request import BookingCreateInputRequest
from .booking_create_input_request_metadata import BookingCreateInputRequestMetadata
from .booking_created_event import BookingCreatedEvent
from .booking_created_event_data import BookingCreatedEventData
from .booking_created_event_data_previous_attributes import BookingCreatedEventDataPreviousAttributes
from .booking_created_event_type import BookingCreatedEventType
from .booking_event_object import BookingEventObject
from .booking_expired_event import BookingExpiredEvent
from .booking_expired_event_data import BookingExpiredEventData
from .booking_expired_event_data_previous_attributes import BookingExpiredEventDataPreviousAttributes
from .booking_expired_event_type import BookingExpiredEventType
from .booking_failed_event import BookingFailedEvent
from .booking_failed_event_data import BookingFailedEventData
from .booking_failed_event_data_previous_attributes import BookingFailedEventDataPreviousAttributes
from .booking_failed_event_type import BookingFailedEventType
from .booking_list_envelope import BookingListEnvelope
from .booking_list_item import BookingListItem
from .booking_metadata import BookingMetadata
from .booking_passenger import BookingPassenger
from .booking_segment import BookingSegment
from .booking_segment_passenger import BookingSegmentPassenger
from .booking_service import BookingService
from .booking_service_metadata import BookingServiceMetadata
from .booking_services_envelope import BookingServicesEnvelope
from .booking_services_input_request import BookingServicesInputRequest
from .booking_slice import BookingSlice
from .booking_status_enum import BookingStatusEnum
from .booking_ticketed_event import BookingTicketedEvent
from .booking_ticketed_event_data import BookingTicketedEventData
from .booking_ticketed_event_data_previous_attributes import BookingTicketedEventDataPreviousAttributes
from .booking_ticketed_event_type import BookingTicketedEventType
from .booking_type_enum import BookingTypeEnum
from .booking_updated_event import BookingUpdatedEvent
from .booking_updated_event_data import BookingUpdatedEventData
from .booking_updated_event_data_previous_attributes import BookingUpdatedEventDataPreviousAttributes
from .booking_updated_event_type import BookingUpdatedEventType
from .bookings_airline_changes_accept_api_version import BookingsAirlineChangesAcceptApiVersion
from .bookings_airline_changes_list_api_version import BookingsAirlineChangesListApiVersion
from .bookings_available_services_api_version import BookingsAvailableServicesApiVersion
from .bookings_cancel_api_version import BookingsCancelApiVersion
from .bookings_cancellations_confirm_api_version import BookingsCancellationsConfirmApiVersion
from .bookings_cancellations_create_api_version import BookingsCancellationsCreateApiVersion
from .bookings_cancellations_list_api_version import BookingsCancellationsListApiVersion
from .bookings_change_requests_create_api_version import BookingsChangeRequestsCreateApiVersion
from .bookings_changes_create_api_version import BookingsChangesCreateApiVersion
from .bookings_confirm_api_version import BookingsConfirmApiVersion
from .bookings_create_api_version import BookingsCreateApiVersion
from .bookings_get_api_version import BookingsGetApiVersion
from .bookings_list_api_version import BookingsListApiVersion
from .bookings_services_add_api_version import BookingsServicesAddApiVersion
from .cabin_class_enum import CabinClassEnum
from .cancel_result import CancelResult
from .cancel_result_status_enum import CancelResultStatusEnum
from .cancellation import Cancellation
from .cancellation_confirm_envelope import CancellationConfirmEnvelope
from .cancellation_envelope import CancellationEnvelope
from .cancellation_list_envelope import CancellationListEnvelope
from .cancellation_status_enum import CancellationStatusEnum
from .carrier import Carrier
from .change_confirm_input_request import ChangeConfirmInputRequest
from .change_offer import ChangeOffer
from .change_offer_refund_to_enum import ChangeOfferRefundToEnum
from .change_offer_slices import ChangeOfferSlices
from .change_payment_input_request import ChangePaymentInputRequest
from .change_remove import ChangeRemove
from .change_request import ChangeRequest
from .change_request_envelope import ChangeRequestEnvelope
from .change_request_input_request import ChangeRequestInputRequest
from .change_request_slices import ChangeRequestSlices
from .change_request_slices_input_request import ChangeRequestSlicesInputRequest
from .change_slice import ChangeSlice
from .client import Client
from .client_create_request import ClientCreateRequest
from .client_create_request_metadata_type_0 import ClientCreateRequestMetadataType0
from .client_envelope import ClientEnvelope
from .client_list_envelope import ClientListEnvelope
from .client_metadata import ClientMetadata
from .clients_create_api_version import ClientsCreateApiVersion
from .clients_get_api_version import ClientsGetApiVersion
from .clients_list_api_version import ClientsListApiVersion
from .clients_update_api_version import ClientsUpdateApiVersion
from .condition import Condition
from .conditions import Conditions
from .confirmed_document import ConfirmedDocument
from .currency_enum import CurrencyEnum
from .document import Document
from .error import Error
from .error_detail import ErrorDetail
from .error_detail_code import ErrorDetailCode
from .error_detail_details_type_0 import ErrorDetailDetailsType0
from .event_envelope import EventEnvelope
from .event_list_envelope import EventListEnvelope
from .event_pagination import EventPagination
from .event_type_enum import EventTypeEnum
from .events_list_api_version import EventsListApiVersion
from .events_list_order import EventsListOrder
from .events_retrieve_api_version import EventsRetrieveApiVersion
from .failure_code_enum import FailureCodeEnum
from .flight_summary import FlightSummary
from .flights_search_api_version import FlightsSearchApiVersion
from .gender_enum import GenderEnum
from .identity_document_input_request import IdentityDocumentInputRequest
from .identity_document_input_type_enum import IdentityDocumentInputTypeEnum
from .integration_connected_event import IntegrationConnectedEvent
from .integration_connected_event_data import IntegrationConnectedEventData
from .integration_connected_event_data_previous_attributes import IntegrationConnectedEventDataPreviousAttributes
from .integration_connected_event_type import IntegrationConnectedEventType
from .integration_disconnected_event import IntegrationDisconnectedEvent
from .integration_disconnected_event_data import IntegrationDisconnectedEventData
from .integration_disconnected_event_data_previous_attributes import IntegrationDisconnectedEventDataPreviousAttributes
from .integration_disconnected_event_type import IntegrationDisconnectedEventType
from .integration_object import IntegrationObject
from .integration_object_object import IntegrationObjectObject
from .integration_object_provider import IntegrationObjectProvider
from .integration_object_status import IntegrationObjectStatus
from .location_type_enum import LocationTypeEnum
from .low_balance_object import LowBalanceObject
from .low_balance_object_currency import LowBalanceObjectCurrency
from .low_balance_object_object import LowBalanceObjectObject
from .loyalty_account_input_request import LoyaltyAccountInputRequest
from .meta import Meta
from .offer import Offer
from .offer_passenger import OfferPassenger
from .offer_passenger_loyalty_programme_accounts_item import OfferPassengerLoyaltyProgrammeAccountsItem
from .offers_available_services_api_version import OffersAvailableServicesApiVersion
from .offers_seat_maps_api_version import OffersSeatMapsApiVersion
from .operating_carrier import OperatingCarrier
from .pagination import Pagination
from .passenger_input_request import PassengerInputRequest
from .passenger_type_enum import PassengerTypeEnum
from .patched_client_update_request import PatchedClientUpdateRequest
from .patched_client_update_request_metadata_type_0 import PatchedClientUpdateRequestMetadataType0
from .payment_instructions import PaymentInstructions
from .payment_method_enum import PaymentMethodEnum
from .payment_requirements import PaymentRequirements
from .payment_status import PaymentStatus
from .pix_key_type_enum import PixKeyTypeEnum
from .place import Place
from .recharge import Recharge
from .recharge_cancel_envelope import RechargeCancelEnvelope
from .recharge_create_request import RechargeCreateRequest
from .recharge_created_envelope import RechargeCreatedEnvelope
from .recharge_envelope import RechargeEnvelope
from .recharge_simulated_envelope import RechargeSimulatedEnvelope
from .recharge_status_enum import RechargeStatusEnum
from .reference_type_enum import ReferenceTypeEnum
from .refund import Refund
from .refund_to_enum import RefundToEnum
from .reports_nfse_api_version import ReportsNfseApiVersion
from .reports_sales_api_version import ReportsSalesApiVersion
from .requested_slice import RequestedSlice
from .reversal_object import ReversalObject
from .reversal_object_currency import ReversalObjectCurrency
from .reversal_object_object import ReversalObjectObject
from .reversal_object_reason import ReversalObjectReason
from .reversal_object_status import ReversalObjectStatus
from .reversal_object_wallet import ReversalObjectWallet
from .sales_report import SalesReport
from .sales_report_client import SalesReportClient
from .sales_report_envelope import SalesReportEnvelope
from .sales_report_period import SalesReportPeriod
from .sales_report_row import SalesReportRow
from .sales_report_totals import SalesReportTotals
from .search_input_request import SearchInputRequest
from .search_passenger_input_request import SearchPassengerInputRequest
from .search_result import SearchResult
from .search_slice_input_request import SearchSliceInputRequest
from .seat import Seat
from .seat_map import SeatMap
from .seat_map_cabin import SeatMapCabin
from .seat_map_cabin_wings import SeatMapCabinWings
from .seat_map_element import SeatMapElement
from .seat_map_list import SeatMapList
from .seat_map_row import SeatMapRow
from .seat_map_section import SeatMapSection
from .seat_service import SeatService
from .segment import Segment
from .segment_end import SegmentEnd
from .segment_passenger import SegmentPassenger
from .service_input_request import ServiceInputRequest
from .service_type_enum import ServiceTypeEnum
from .slice_ import Slice
from .slice_to_add_request import SliceToAddRequest
from .slice_to_remove_request import SliceToRemoveRequest
from .tax_id_type_enum import TaxIdTypeEnum
from .title_enum import TitleEnum
from .transaction import Transaction
from .transaction_page import TransactionPage
from .transaction_page_envelope import TransactionPageEnvelope
from .transaction_summary import TransactionSummary
from .transaction_type_enum import TransactionTypeEnum
from .trip_type_enum import TripTypeEnum
from .wallet_balance_api_version import WalletBalanceApiVersion
from .wallet_credit_event import WalletCreditEvent
from .wallet_credit_event_data import WalletCreditEventData
from .wallet_credit_event_data_previous_attributes import WalletCreditEventDataPreviousAttributes
from .wallet_credit_event_type import WalletCreditEventType
from .wallet_debit_event import WalletDebitEvent
from .wallet_debit_event_data import WalletDebitEventData
from .wallet_debit_event_data_previous_attributes import WalletDebitEventDataPreviousAttributes
from .wallet_debit_event_type import WalletDebitEventType
from .wallet_low_balance_event import WalletLowBalanceEvent
from .wallet_low_balance_event_data import WalletLowBalanceEventData
from .wallet_low_balance_event_data_previous_attributes import WalletLowBalanceEventDataPreviousAttributes
from .wallet_low_balance_event_type import WalletLowBalanceEventType
from .wallet_recharge_cancel_api_version import WalletRechargeCancelApiVersion
from .wallet_recharge_completed_event import WalletRechargeCompletedEvent
from .wallet_recharge_completed_event_data import WalletRechargeCompletedEventData
from .wallet_recharge_completed_event_data_previous_attributes import WalletRechargeCompletedEventDataPreviousAttributes
from .wallet_recharge_completed_event_type import WalletRechargeCompletedEventType
from .wallet_recharge_create_api_version import WalletRechargeCreateApiVersion
from .wallet_recharge_expired_event import WalletRechargeExpiredEvent
from .wallet_recharge_expired_event_data import WalletRechargeExpiredEventData
from .wallet_recharge_expired_event_data_previous_attributes import WalletRechargeExpiredEventDataPreviousAttributes
from .wallet_recharge_expired_event_type import WalletRechargeExpiredEventType
from .wallet_recharge_get_api_version import WalletRechargeGetApiVersion
from .wallet_recharge_pending_event import WalletRechargePendingEvent
from .wallet_recharge_pending_event_data import WalletRechargePendingEventData
from .wallet_recharge_pending_event_data_previous_attributes import WalletRechargePendingEventDataPreviousAttributes
from .wallet_recharge_pending_event_type import WalletRechargePendingEventType
from .wallet_recharge_simulate_payment_api_version import WalletRechargeSimulatePaymentApiVersion
from .wallet_reversal_event import WalletReversalEvent
from .wallet_reversal_event_data import WalletReversalEventData
from .wallet_reversal_event_data_previous_attributes import WalletReversalEventDataPreviousAttributes
from .wallet_reversal_event_type import WalletReversalEventType
from .wallet_transactions_api_version import WalletTransactionsApiVersion
from .wallet_transactions_type import WalletTransactionsType
from .wallet_withdrawal_completed_event import WalletWithdrawalCompletedEvent
from .wallet_withdrawal_completed_event_data import WalletWithdrawalCompletedEventData
from .wallet_withdrawal_completed_event_data_previous_attributes import WalletWithdrawalCompletedEventDataPreviousAttributes
from .wallet_withdrawal_completed_event_type import WalletWithdrawalCompletedEventType
from .wallet_withdrawal_created_event import WalletWithdrawalCreatedEvent
from .wallet_withdrawal_created_event_data import WalletWithdrawalCreatedEventData
from .wallet_withdrawal_created_event_data_previous_attributes import WalletWithdrawalCreatedEventDataPreviousAttributes
from .wallet_withdrawal_created_event_type import WalletWithdrawalCreatedEventType
from .wallet_withdrawal_failed_event import WalletWithdrawalFailedEvent
from .wallet_withdrawal_failed_event_data import WalletWithdrawalFailedEventData
from .wallet_withdrawal_failed_event_data_previous_attributes import WalletWithdrawalFailedEventDataPreviousAttributes
from .wallet_withdrawal_failed_event_type import WalletWithdrawalFailedEventType
from .wallet_withdrawals_create_api_version import WalletWithdrawalsCreateApiVersion
from .wallet_withdrawals_get_api_version import WalletWithdrawalsGetApiVersion
from .wallet_withdrawals_list_api_version import WalletWithdrawalsListApiVersion
from .webhook import Webhook
from .webhook_create_request import WebhookCreateRequest
from .webhook_created import WebhookCreated
from .webhook_created_envelope import WebhookCreatedEnvelope
from .webhook_deleted import WebhookDeleted
from .webhook_deleted_envelope import WebhookDeletedEnvelope
from .webhook_envelope import WebhookEnvelope
from .webhook_list import WebhookList
from .webhook_recover_request import WebhookRecoverRequest
from .webhook_recovered import WebhookRecovered
from .webhook_recovered_envelope import WebhookRecoveredEnvelope
from .webhook_rotate_secret_request import WebhookRotateSecretRequest
from .webhook_secret_rotated import WebhookSecretRotated
from .webhook_secret_rotated_envelope import WebhookSecretRotatedEnvelope
from .webhook_tested import WebhookTested
from .webhook_tested_envelope import WebhookTestedEnvelope
from .webhook_tested_status_enum import WebhookTestedStatusEnum
from .webhook_update_request import WebhookUpdateRequest
from .webhook_updated import WebhookUpdated
from .webhook_updated_envelope import WebhookUpdatedEnvelope
from .webhooks_create_api_version import WebhooksCreateApiVersion
from .webhooks_delete_api_version import WebhooksDeleteApiVersion
from .webhooks_list_api_version import WebhooksListApiVersion
from .webhooks_recover_api_version import WebhooksRecoverApiVersion
from .webhooks_retrieve_api_version import WebhooksRetrieveApiVersion
from .webhooks_rotate_secret_api_version import WebhooksRotateSecretApiVersion
from .webhooks_test_api_version import WebhooksTestApiVersion
from .webhooks_update_api_version import WebhooksUpdateApiVersion
from .withdrawal import Withdrawal
from .withdrawal_create_request import WithdrawalCreateRequest
from .withdrawal_created_envelope import WithdrawalCreatedEnvelope
from .withdrawal_destination import WithdrawalDestination
from .withdrawal_destination_type_enum import WithdrawalDestinationTypeEnum
from .withdrawal_envelope import WithdrawalEnvelope
from .withdrawal_list_envelope import WithdrawalListEnvelope
from .withdrawal_status_enum import WithdrawalStatusEnum

__all__ = (
    "ActionTakenEnum",
    "Aircraft",
    "AirlineChange",
    "AirlineChangeEnvelope",
    "AirlineChangeListEnvelope",
    "AirlineCredit",
    "ApiKeyCreatedEvent",
    "ApiKeyCreatedEventData",
    "ApiKeyCreatedEventDataPreviousAttributes",
    "ApiKeyCreatedEventType",
    "ApiKeyObject",
    "ApiKeyObjectObject",
    "ApiKeyObjectPermissionsType0Item",
    "ApiKeyRevokedEvent",
    "ApiKeyRevokedEventData",
    "ApiKeyRevokedEventDataPreviousAttributes",
    "ApiKeyRevokedEventType",
    "ApiVersionEnum",
    "AvailableActionsEnum",
    "AvailableService",
    "AvailableServiceList",
    "AvailableServiceMetadata",
    "Baggage",
    "BaggageTypeEnum",
    "Balance",
    "BalanceEnvelope",
    "BalancePaymentInputRequest",
    "BalancePaymentInputTypeEnum",
    "Booking",
    "BookingAirlineChangeDetectedEvent",
    "BookingAirlineChangeDetectedEventData",
    "BookingAirlineChangeDetectedEventDataPreviousAttributes",
    "BookingAirlineChangeDetectedEventType",
    "BookingAirlineChangeEventObject",
    "BookingAvailableServiceList",
    "BookingCancelEnvelope",
    "BookingCancelledEvent",
    "BookingCancelledEventData",
    "BookingCancelledEventDataPreviousAttributes",
    "BookingCancelledEventType",
    "BookingChangeEnvelope",
    "BookingClient",
    "BookingConfirmed",
    "BookingConfirmedEvent",
    "BookingConfirmedEventData",
    "BookingConfirmedEventDataPreviousAttributes",
    "BookingConfirmedEventType",
    "BookingConfirmEnvelope",
    "BookingConfirmInputRequest",
    "BookingCreatedEvent",
    "BookingCreatedEventData",
    "BookingCreatedEventDataPreviousAttributes",
    "BookingCreatedEventType",
    "BookingCreateInputRequest",
    "BookingCreateInputRequestMetadata",
    "BookingEventObject",
    "BookingExpiredEvent",
    "BookingExpiredEventData",
    "BookingExpiredEventDataPreviousAttributes",
    "BookingExpiredEventType",
    "BookingFailedEvent",
    "BookingFailedEventData",
    "BookingFailedEventDataPreviousAttributes",
    "BookingFailedEventType",
    "BookingListEnvelope",
    "BookingListItem",
    "BookingMetadata",
    "BookingPassenger",
    "BookingsAirlineChangesAcceptApiVersion",
    "BookingsAirlineChangesListApiVersion",
    "BookingsAvailableServicesApiVersion",
    "BookingsCancelApiVersion",
    "BookingsCancellationsConfirmApiVersion",
    "BookingsCancellationsCreateApiVersion",
    "BookingsCancellationsListApiVersion",
    "BookingsChangeRequestsCreateApiVersion",
    "BookingsChangesCreateApiVersion",
    "BookingsConfirmApiVersion",
    "BookingsCreateApiVersion",
    "BookingSegment",
    "BookingSegmentPassenger",
    "BookingService",
    "BookingServiceMetadata",
    "BookingServicesEnvelope",
    "BookingServicesInputRequest",
    "BookingsGetApiVersion",
    "BookingSlice",
    "BookingsListApiVersion",
    "BookingsServicesAddApiVersion",
    "BookingStatusEnum",
    "BookingTicketedEvent",
    "BookingTicketedEventData",
    "BookingTicketedEventDataPreviousAttributes",
    "BookingTicketedEventType",
    "BookingTypeEnum",
    "BookingUpdatedEvent",
    "BookingUpdatedEventData",
    "BookingUpdatedEventDataPreviousAttributes",
    "BookingUpdatedEventType",
    "CabinClassEnum",
    "Cancellation",
    "CancellationConfirmEnvelope",
    "CancellationEnvelope",
    "CancellationListEnvelope",
    "CancellationStatusEnum",
    "CancelResult",
    "CancelResultStatusEnum",
    "Carrier",
    "ChangeConfirmInputRequest",
    "ChangeOffer",
    "ChangeOfferRefundToEnum",
    "ChangeOfferSlices",
    "ChangePaymentInputRequest",
    "ChangeRemove",
    "ChangeRequest",
    "ChangeRequestEnvelope",
    "ChangeRequestInputRequest",
    "ChangeRequestSlices",
    "ChangeRequestSlicesInputRequest",
    "ChangeSlice",
    "Client",
    "ClientCreateRequest",
    "ClientCreateRequestMetadataType0",
    "ClientEnvelope",
    "ClientListEnvelope",
    "ClientMetadata",
    "ClientsCreateApiVersion",
    "ClientsGetApiVersion",
    "ClientsListApiVersion",
    "ClientsUpdateApiVersion",
    "Condition",
    "Conditions",
    "ConfirmedDocument",
    "CurrencyEnum",
    "Document",
    "Error",
    "ErrorDetail",
    "ErrorDetailCode",
    "ErrorDetailDetailsType0",
    "EventEnvelope",
    "EventListEnvelope",
    "EventPagination",
    "EventsListApiVersion",
    "EventsListOrder",
    "EventsRetrieveApiVersion",
    "EventTypeEnum",
    "FailureCodeEnum",
    "FlightsSearchApiVersion",
    "FlightSummary",
    "GenderEnum",
    "IdentityDocumentInputRequest",
    "IdentityDocumentInputTypeEnum",
    "IntegrationConnectedEvent",
    "IntegrationConnectedEventData",
    "IntegrationConnectedEventDataPreviousAttributes",
    "IntegrationConnectedEventType",
    "IntegrationDisconnectedEvent",
    "IntegrationDisconnectedEventData",
    "IntegrationDisconnectedEventDataPreviousAttributes",
    "IntegrationDisconnectedEventType",
    "IntegrationObject",
    "IntegrationObjectObject",
    "IntegrationObjectProvider",
    "IntegrationObjectStatus",
    "LocationTypeEnum",
    "LowBalanceObject",
    "LowBalanceObjectCurrency",
    "LowBalanceObjectObject",
    "LoyaltyAccountInputRequest",
    "Meta",
    "Offer",
    "OfferPassenger",
    "OfferPassengerLoyaltyProgrammeAccountsItem",
    "OffersAvailableServicesApiVersion",
    "OffersSeatMapsApiVersion",
    "OperatingCarrier",
    "Pagination",
    "PassengerInputRequest",
    "PassengerTypeEnum",
    "PatchedClientUpdateRequest",
    "PatchedClientUpdateRequestMetadataType0",
    "PaymentInstructions",
    "PaymentMethodEnum",
    "PaymentRequirements",
    "PaymentStatus",
    "PixKeyTypeEnum",
    "Place",
    "Recharge",
    "RechargeCancelEnvelope",
    "RechargeCreatedEnvelope",
    "RechargeCreateRequest",
    "RechargeEnvelope",
    "RechargeSimulatedEnvelope",
    "RechargeStatusEnum",
    "ReferenceTypeEnum",
    "Refund",
    "RefundToEnum",
    "ReportsNfseApiVersion",
    "ReportsSalesApiVersion",
    "RequestedSlice",
    "ReversalObject",
    "ReversalObjectCurrency",
    "ReversalObjectObject",
    "ReversalObjectReason",
    "ReversalObjectStatus",
    "ReversalObjectWallet",
    "SalesReport",
    "SalesReportClient",
    "SalesReportEnvelope",
    "SalesReportPeriod",
    "SalesReportRow",
    "SalesReportTotals",
    "SearchInputRequest",
    "SearchPassengerInputRequest",
    "SearchResult",
    "SearchSliceInputRequest",
    "Seat",
    "SeatMap",
    "SeatMapCabin",
    "SeatMapCabinWings",
    "SeatMapElement",
    "SeatMapList",
    "SeatMapRow",
    "SeatMapSection",
    "SeatService",
    "Segment",
    "SegmentEnd",
    "SegmentPassenger",
    "ServiceInputRequest",
    "ServiceTypeEnum",
    "Slice",
    "SliceToAddRequest",
    "SliceToRemoveRequest",
    "TaxIdTypeEnum",
    "TitleEnum",
    "Transaction",
    "TransactionPage",
    "TransactionPageEnvelope",
    "TransactionSummary",
    "TransactionTypeEnum",
    "TripTypeEnum",
    "WalletBalanceApiVersion",
    "WalletCreditEvent",
    "WalletCreditEventData",
    "WalletCreditEventDataPreviousAttributes",
    "WalletCreditEventType",
    "WalletDebitEvent",
    "WalletDebitEventData",
    "WalletDebitEventDataPreviousAttributes",
    "WalletDebitEventType",
    "WalletLowBalanceEvent",
    "WalletLowBalanceEventData",
    "WalletLowBalanceEventDataPreviousAttributes",
    "WalletLowBalanceEventType",
    "WalletRechargeCancelApiVersion",
    "WalletRechargeCompletedEvent",
    "WalletRechargeCompletedEventData",
    "WalletRechargeCompletedEventDataPreviousAttributes",
    "WalletRechargeCompletedEventType",
    "WalletRechargeCreateApiVersion",
    "WalletRechargeExpiredEvent",
    "WalletRechargeExpiredEventData",
    "WalletRechargeExpiredEventDataPreviousAttributes",
    "WalletRechargeExpiredEventType",
    "WalletRechargeGetApiVersion",
    "WalletRechargePendingEvent",
    "WalletRechargePendingEventData",
    "WalletRechargePendingEventDataPreviousAttributes",
    "WalletRechargePendingEventType",
    "WalletRechargeSimulatePaymentApiVersion",
    "WalletReversalEvent",
    "WalletReversalEventData",
    "WalletReversalEventDataPreviousAttributes",
    "WalletReversalEventType",
    "WalletTransactionsApiVersion",
    "WalletTransactionsType",
    "WalletWithdrawalCompletedEvent",
    "WalletWithdrawalCompletedEventData",
    "WalletWithdrawalCompletedEventDataPreviousAttributes",
    "WalletWithdrawalCompletedEventType",
    "WalletWithdrawalCreatedEvent",
    "WalletWithdrawalCreatedEventData",
    "WalletWithdrawalCreatedEventDataPreviousAttributes",
    "WalletWithdrawalCreatedEventType",
    "WalletWithdrawalFailedEvent",
    "WalletWithdrawalFailedEventData",
    "WalletWithdrawalFailedEventDataPreviousAttributes",
    "WalletWithdrawalFailedEventType",
    "WalletWithdrawalsCreateApiVersion",
    "WalletWithdrawalsGetApiVersion",
    "WalletWithdrawalsListApiVersion",
    "Webhook",
    "WebhookCreated",
    "WebhookCreatedEnvelope",
    "WebhookCreateRequest",
    "WebhookDeleted",
    "WebhookDeletedEnvelope",
    "WebhookEnvelope",
    "WebhookList",
    "WebhookRecovered",
    "WebhookRecoveredEnvelope",
    "WebhookRecoverRequest",
    "WebhookRotateSecretRequest",
    "WebhooksCreateApiVersion",
    "WebhooksDeleteApiVersion",
    "WebhookSecretRotated",
    "WebhookSecretRotatedEnvelope",
    "WebhooksListApiVersion",
    "WebhooksRecoverApiVersion",
    "WebhooksRetrieveApiVersion",
    "WebhooksRotateSecretApiVersion",
    "WebhooksTestApiVersion",
    "WebhooksUpdateApiVersion",
    "WebhookTested",
    "WebhookTestedEnvelope",
    "WebhookTestedStatusEnum",
    "WebhookUpdated",
    "WebhookUpdatedEnvelope",
    "WebhookUpdateRequest",
    "Withdrawal",
    "WithdrawalCreatedEnvelope",
    "WithdrawalCreateRequest",
    "WithdrawalDestination",
    "WithdrawalDestinationTypeEnum",
    "WithdrawalEnvelope",
    "WithdrawalListEnvelope",
    "WithdrawalStatusEnum",
)
