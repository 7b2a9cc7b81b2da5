from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.bookings_change_requests_create_api_version import BookingsChangeRequestsCreateApiVersion
from ...models.change_request_envelope import ChangeRequestEnvelope
from ...models.change_request_input_request import ChangeRequestInputRequest
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    booking_id: str,
    *,
    body: ChangeRequestInputRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsChangeRequestsCreateApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/bookings/{booking_id}/change_requests".format(booking_id=quote(str(booking_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ChangeRequestEnvelope | Error | None:
    if response.status_code == 201:
        response_201 = ChangeRequestEnvelope.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())



        return response_404

    if response.status_code == 405:
        response_405 = Error.from_dict(response.json())



        return response_405

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())



        return response_429

    if response.status_code == 502:
        response_502 = Error.from_dict(response.json())



        return response_502

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ChangeRequestEnvelope | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    booking_id: str,
    *,
    client: AuthenticatedClient,
    body: ChangeRequestInputRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsChangeRequestsCreateApiVersion | Unset = UNSET,

) -> Response[ChangeRequestEnvelope | Error]:
    """ Ask for flight changes

     Asks the supplier for offers to change the booking's slices (Duffel's order change request), each
    priced in BRL at the booking's exchange rate with the agency's price of the change. Nothing changes
    yet; confirm one before its `expires_at`.

    Args:
        booking_id (str):
        idempotency_key (str | Unset):
        api_version (BookingsChangeRequestsCreateApiVersion | Unset):
        body (ChangeRequestInputRequest): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChangeRequestEnvelope | Error]
     """


    kwargs = _get_kwargs(
        booking_id=booking_id,
body=body,
idempotency_key=idempotency_key,
api_version=api_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    booking_id: str,
    *,
    client: AuthenticatedClient,
    body: ChangeRequestInputRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsChangeRequestsCreateApiVersion | Unset = UNSET,

) -> ChangeRequestEnvelope | Error | None:
    """ Ask for flight changes

     Asks the supplier for offers to change the booking's slices (Duffel's order change request), each
    priced in BRL at the booking's exchange rate with the agency's price of the change. Nothing changes
    yet; confirm one before its `expires_at`.

    Args:
        booking_id (str):
        idempotency_key (str | Unset):
        api_version (BookingsChangeRequestsCreateApiVersion | Unset):
        body (ChangeRequestInputRequest): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChangeRequestEnvelope | Error
     """


    return sync_detailed(
        booking_id=booking_id,
client=client,
body=body,
idempotency_key=idempotency_key,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    booking_id: str,
    *,
    client: AuthenticatedClient,
    body: ChangeRequestInputRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsChangeRequestsCreateApiVersion | Unset = UNSET,

) -> Response[ChangeRequestEnvelope | Error]:
    """ Ask for flight changes

     Asks the supplier for offers to change the booking's slices (Duffel's order change request), each
    priced in BRL at the booking's exchange rate with the agency's price of the change. Nothing changes
    yet; confirm one before its `expires_at`.

    Args:
        booking_id (str):
        idempotency_key (str | Unset):
        api_version (BookingsChangeRequestsCreateApiVersion | Unset):
        body (ChangeRequestInputRequest): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChangeRequestEnvelope | Error]
     """


    kwargs = _get_kwargs(
        booking_id=booking_id,
body=body,
idempotency_key=idempotency_key,
api_version=api_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    booking_id: str,
    *,
    client: AuthenticatedClient,
    body: ChangeRequestInputRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsChangeRequestsCreateApiVersion | Unset = UNSET,

) -> ChangeRequestEnvelope | Error | None:
    """ Ask for flight changes

     Asks the supplier for offers to change the booking's slices (Duffel's order change request), each
    priced in BRL at the booking's exchange rate with the agency's price of the change. Nothing changes
    yet; confirm one before its `expires_at`.

    Args:
        booking_id (str):
        idempotency_key (str | Unset):
        api_version (BookingsChangeRequestsCreateApiVersion | Unset):
        body (ChangeRequestInputRequest): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChangeRequestEnvelope | Error
     """


    return (await asyncio_detailed(
        booking_id=booking_id,
client=client,
body=body,
idempotency_key=idempotency_key,
api_version=api_version,

    )).parsed
