from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.airline_change_envelope import AirlineChangeEnvelope
from ...models.bookings_airline_changes_accept_api_version import BookingsAirlineChangesAcceptApiVersion
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    booking_id: str,
    change_id: str,
    *,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsAirlineChangesAcceptApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/bookings/{booking_id}/airline_changes/{change_id}/accept".format(booking_id=quote(str(booking_id), safe=""),change_id=quote(str(change_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AirlineChangeEnvelope | Error | None:
    if response.status_code == 200:
        response_200 = AirlineChangeEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AirlineChangeEnvelope | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    booking_id: str,
    change_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsAirlineChangesAcceptApiVersion | Unset = UNSET,

) -> Response[AirlineChangeEnvelope | Error]:
    """ Accept an airline change

     Accepts the change at the supplier and reads it back: once the supplier says `accepted`, the
    booking's slices become the change's `added` ones (a `booking.updated` event with the old slices in
    `previous_attributes`). To refuse the new times, cancel the booking (its cancellations: the
    airline's involuntary refund).

    Args:
        booking_id (str):
        change_id (str):
        idempotency_key (str | Unset):
        api_version (BookingsAirlineChangesAcceptApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AirlineChangeEnvelope | Error]
     """


    kwargs = _get_kwargs(
        booking_id=booking_id,
change_id=change_id,
idempotency_key=idempotency_key,
api_version=api_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    booking_id: str,
    change_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsAirlineChangesAcceptApiVersion | Unset = UNSET,

) -> AirlineChangeEnvelope | Error | None:
    """ Accept an airline change

     Accepts the change at the supplier and reads it back: once the supplier says `accepted`, the
    booking's slices become the change's `added` ones (a `booking.updated` event with the old slices in
    `previous_attributes`). To refuse the new times, cancel the booking (its cancellations: the
    airline's involuntary refund).

    Args:
        booking_id (str):
        change_id (str):
        idempotency_key (str | Unset):
        api_version (BookingsAirlineChangesAcceptApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AirlineChangeEnvelope | Error
     """


    return sync_detailed(
        booking_id=booking_id,
change_id=change_id,
client=client,
idempotency_key=idempotency_key,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    booking_id: str,
    change_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsAirlineChangesAcceptApiVersion | Unset = UNSET,

) -> Response[AirlineChangeEnvelope | Error]:
    """ Accept an airline change

     Accepts the change at the supplier and reads it back: once the supplier says `accepted`, the
    booking's slices become the change's `added` ones (a `booking.updated` event with the old slices in
    `previous_attributes`). To refuse the new times, cancel the booking (its cancellations: the
    airline's involuntary refund).

    Args:
        booking_id (str):
        change_id (str):
        idempotency_key (str | Unset):
        api_version (BookingsAirlineChangesAcceptApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AirlineChangeEnvelope | Error]
     """


    kwargs = _get_kwargs(
        booking_id=booking_id,
change_id=change_id,
idempotency_key=idempotency_key,
api_version=api_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    booking_id: str,
    change_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    api_version: BookingsAirlineChangesAcceptApiVersion | Unset = UNSET,

) -> AirlineChangeEnvelope | Error | None:
    """ Accept an airline change

     Accepts the change at the supplier and reads it back: once the supplier says `accepted`, the
    booking's slices become the change's `added` ones (a `booking.updated` event with the old slices in
    `previous_attributes`). To refuse the new times, cancel the booking (its cancellations: the
    airline's involuntary refund).

    Args:
        booking_id (str):
        change_id (str):
        idempotency_key (str | Unset):
        api_version (BookingsAirlineChangesAcceptApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AirlineChangeEnvelope | Error
     """


    return (await asyncio_detailed(
        booking_id=booking_id,
change_id=change_id,
client=client,
idempotency_key=idempotency_key,
api_version=api_version,

    )).parsed
