from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.airline_change_list_envelope import AirlineChangeListEnvelope
from ...models.bookings_airline_changes_list_api_version import BookingsAirlineChangesListApiVersion
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    booking_id: str,
    *,
    api_version: BookingsAirlineChangesListApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/bookings/{booking_id}/airline_changes".format(booking_id=quote(str(booking_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AirlineChangeListEnvelope | Error | None:
    if response.status_code == 200:
        response_200 = AirlineChangeListEnvelope.from_dict(response.json())



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

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())



        return response_413

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AirlineChangeListEnvelope | Error]:
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
    api_version: BookingsAirlineChangesListApiVersion | Unset = UNSET,

) -> Response[AirlineChangeListEnvelope | Error]:
    """ List a booking's airline changes

     The changes the airline made to the booking's flights (Duffel's airline-initiated changes), newest
    first: `removed` the slices as booked, `added` as changed (local times), what the airline allows
    (`available_actions`) and what was done (`action_taken`). Each is also a
    `booking.airline_change_detected` event.

    Args:
        booking_id (str):
        api_version (BookingsAirlineChangesListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AirlineChangeListEnvelope | Error]
     """


    kwargs = _get_kwargs(
        booking_id=booking_id,
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
    api_version: BookingsAirlineChangesListApiVersion | Unset = UNSET,

) -> AirlineChangeListEnvelope | Error | None:
    """ List a booking's airline changes

     The changes the airline made to the booking's flights (Duffel's airline-initiated changes), newest
    first: `removed` the slices as booked, `added` as changed (local times), what the airline allows
    (`available_actions`) and what was done (`action_taken`). Each is also a
    `booking.airline_change_detected` event.

    Args:
        booking_id (str):
        api_version (BookingsAirlineChangesListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AirlineChangeListEnvelope | Error
     """


    return sync_detailed(
        booking_id=booking_id,
client=client,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    booking_id: str,
    *,
    client: AuthenticatedClient,
    api_version: BookingsAirlineChangesListApiVersion | Unset = UNSET,

) -> Response[AirlineChangeListEnvelope | Error]:
    """ List a booking's airline changes

     The changes the airline made to the booking's flights (Duffel's airline-initiated changes), newest
    first: `removed` the slices as booked, `added` as changed (local times), what the airline allows
    (`available_actions`) and what was done (`action_taken`). Each is also a
    `booking.airline_change_detected` event.

    Args:
        booking_id (str):
        api_version (BookingsAirlineChangesListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AirlineChangeListEnvelope | Error]
     """


    kwargs = _get_kwargs(
        booking_id=booking_id,
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
    api_version: BookingsAirlineChangesListApiVersion | Unset = UNSET,

) -> AirlineChangeListEnvelope | Error | None:
    """ List a booking's airline changes

     The changes the airline made to the booking's flights (Duffel's airline-initiated changes), newest
    first: `removed` the slices as booked, `added` as changed (local times), what the airline allows
    (`available_actions`) and what was done (`action_taken`). Each is also a
    `booking.airline_change_detected` event.

    Args:
        booking_id (str):
        api_version (BookingsAirlineChangesListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AirlineChangeListEnvelope | Error
     """


    return (await asyncio_detailed(
        booking_id=booking_id,
client=client,
api_version=api_version,

    )).parsed
