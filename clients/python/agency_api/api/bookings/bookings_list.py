from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.booking_list_envelope import BookingListEnvelope
from ...models.bookings_list_api_version import BookingsListApiVersion
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    *,
    created_after: datetime.date | Unset = UNSET,
    created_before: datetime.date | Unset = UNSET,
    limit: int | Unset = 20,
    page: int | Unset = 1,
    status: str | Unset = UNSET,
    api_version: BookingsListApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    params: dict[str, Any] = {}

    json_created_after: str | Unset = UNSET
    if not isinstance(created_after, Unset):
        json_created_after = created_after.isoformat()
    params["created_after"] = json_created_after

    json_created_before: str | Unset = UNSET
    if not isinstance(created_before, Unset):
        json_created_before = created_before.isoformat()
    params["created_before"] = json_created_before

    params["limit"] = limit

    params["page"] = page

    params["status"] = status


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/bookings",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BookingListEnvelope | Error | None:
    if response.status_code == 200:
        response_200 = BookingListEnvelope.from_dict(response.json())



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

    if response.status_code == 405:
        response_405 = Error.from_dict(response.json())



        return response_405

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())



        return response_413

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BookingListEnvelope | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    created_after: datetime.date | Unset = UNSET,
    created_before: datetime.date | Unset = UNSET,
    limit: int | Unset = 20,
    page: int | Unset = 1,
    status: str | Unset = UNSET,
    api_version: BookingsListApiVersion | Unset = UNSET,

) -> Response[BookingListEnvelope | Error]:
    """ List bookings

     Newest first; filter by status and by creation day (America/Sao_Paulo).

    Args:
        created_after (datetime.date | Unset):
        created_before (datetime.date | Unset):
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        status (str | Unset):
        api_version (BookingsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BookingListEnvelope | Error]
     """


    kwargs = _get_kwargs(
        created_after=created_after,
created_before=created_before,
limit=limit,
page=page,
status=status,
api_version=api_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    created_after: datetime.date | Unset = UNSET,
    created_before: datetime.date | Unset = UNSET,
    limit: int | Unset = 20,
    page: int | Unset = 1,
    status: str | Unset = UNSET,
    api_version: BookingsListApiVersion | Unset = UNSET,

) -> BookingListEnvelope | Error | None:
    """ List bookings

     Newest first; filter by status and by creation day (America/Sao_Paulo).

    Args:
        created_after (datetime.date | Unset):
        created_before (datetime.date | Unset):
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        status (str | Unset):
        api_version (BookingsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BookingListEnvelope | Error
     """


    return sync_detailed(
        client=client,
created_after=created_after,
created_before=created_before,
limit=limit,
page=page,
status=status,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    created_after: datetime.date | Unset = UNSET,
    created_before: datetime.date | Unset = UNSET,
    limit: int | Unset = 20,
    page: int | Unset = 1,
    status: str | Unset = UNSET,
    api_version: BookingsListApiVersion | Unset = UNSET,

) -> Response[BookingListEnvelope | Error]:
    """ List bookings

     Newest first; filter by status and by creation day (America/Sao_Paulo).

    Args:
        created_after (datetime.date | Unset):
        created_before (datetime.date | Unset):
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        status (str | Unset):
        api_version (BookingsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BookingListEnvelope | Error]
     """


    kwargs = _get_kwargs(
        created_after=created_after,
created_before=created_before,
limit=limit,
page=page,
status=status,
api_version=api_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    created_after: datetime.date | Unset = UNSET,
    created_before: datetime.date | Unset = UNSET,
    limit: int | Unset = 20,
    page: int | Unset = 1,
    status: str | Unset = UNSET,
    api_version: BookingsListApiVersion | Unset = UNSET,

) -> BookingListEnvelope | Error | None:
    """ List bookings

     Newest first; filter by status and by creation day (America/Sao_Paulo).

    Args:
        created_after (datetime.date | Unset):
        created_before (datetime.date | Unset):
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        status (str | Unset):
        api_version (BookingsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BookingListEnvelope | Error
     """


    return (await asyncio_detailed(
        client=client,
created_after=created_after,
created_before=created_before,
limit=limit,
page=page,
status=status,
api_version=api_version,

    )).parsed
