from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.booking_confirm_envelope import BookingConfirmEnvelope
from ...models.booking_confirm_input_request import BookingConfirmInputRequest
from ...models.bookings_confirm_api_version import BookingsConfirmApiVersion
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    booking_id: str,
    *,
    body: BookingConfirmInputRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsConfirmApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/bookings/{booking_id}/confirm".format(booking_id=quote(str(booking_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BookingConfirmEnvelope | Error | None:
    if response.status_code == 200:
        response_200 = BookingConfirmEnvelope.from_dict(response.json())



        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BookingConfirmEnvelope | Error]:
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
    body: BookingConfirmInputRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsConfirmApiVersion | Unset = UNSET,

) -> Response[BookingConfirmEnvelope | Error]:
    """ Pay for a hold

     Debits the wallet and issues the tickets automatically (`confirmed`, then `ticketed`).

    Args:
        booking_id (str):
        idempotency_key (str | Unset):
        api_version (BookingsConfirmApiVersion | Unset):
        body (BookingConfirmInputRequest): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BookingConfirmEnvelope | Error]
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
    body: BookingConfirmInputRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsConfirmApiVersion | Unset = UNSET,

) -> BookingConfirmEnvelope | Error | None:
    """ Pay for a hold

     Debits the wallet and issues the tickets automatically (`confirmed`, then `ticketed`).

    Args:
        booking_id (str):
        idempotency_key (str | Unset):
        api_version (BookingsConfirmApiVersion | Unset):
        body (BookingConfirmInputRequest): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BookingConfirmEnvelope | Error
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
    body: BookingConfirmInputRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsConfirmApiVersion | Unset = UNSET,

) -> Response[BookingConfirmEnvelope | Error]:
    """ Pay for a hold

     Debits the wallet and issues the tickets automatically (`confirmed`, then `ticketed`).

    Args:
        booking_id (str):
        idempotency_key (str | Unset):
        api_version (BookingsConfirmApiVersion | Unset):
        body (BookingConfirmInputRequest): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BookingConfirmEnvelope | Error]
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
    body: BookingConfirmInputRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsConfirmApiVersion | Unset = UNSET,

) -> BookingConfirmEnvelope | Error | None:
    """ Pay for a hold

     Debits the wallet and issues the tickets automatically (`confirmed`, then `ticketed`).

    Args:
        booking_id (str):
        idempotency_key (str | Unset):
        api_version (BookingsConfirmApiVersion | Unset):
        body (BookingConfirmInputRequest): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BookingConfirmEnvelope | Error
     """


    return (await asyncio_detailed(
        booking_id=booking_id,
client=client,
body=body,
idempotency_key=idempotency_key,
api_version=api_version,

    )).parsed
