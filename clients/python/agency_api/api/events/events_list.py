from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.event_list_envelope import EventListEnvelope
from ...models.events_list_api_version import EventsListApiVersion
from ...models.events_list_order import EventsListOrder
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    *,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    limit: int | Unset = 20,
    order: EventsListOrder | Unset = EventsListOrder.DESC,
    page: int | Unset = 1,
    starting_after: str | Unset = UNSET,
    type_: str | Unset = UNSET,
    api_version: EventsListApiVersion | Unset = UNSET,

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

    params["ending_before"] = ending_before

    params["limit"] = limit

    json_order: str | Unset = UNSET
    if not isinstance(order, Unset):
        json_order = order.value

    params["order"] = json_order

    params["page"] = page

    params["starting_after"] = starting_after

    params["type"] = type_


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/events",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | EventListEnvelope | None:
    if response.status_code == 200:
        response_200 = EventListEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | EventListEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    limit: int | Unset = 20,
    order: EventsListOrder | Unset = EventsListOrder.DESC,
    page: int | Unset = 1,
    starting_after: str | Unset = UNSET,
    type_: str | Unset = UNSET,
    api_version: EventsListApiVersion | Unset = UNSET,

) -> Response[Error | EventListEnvelope]:
    """ List events

     The team's events of this mode, newest first, exactly as they are delivered.

    Args:
        created_after (datetime.datetime | Unset):
        created_before (datetime.datetime | Unset):
        ending_before (str | Unset):
        limit (int | Unset):  Default: 20.
        order (EventsListOrder | Unset):  Default: EventsListOrder.DESC.
        page (int | Unset):  Default: 1.
        starting_after (str | Unset):
        type_ (str | Unset):
        api_version (EventsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventListEnvelope]
     """


    kwargs = _get_kwargs(
        created_after=created_after,
created_before=created_before,
ending_before=ending_before,
limit=limit,
order=order,
page=page,
starting_after=starting_after,
type_=type_,
api_version=api_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    limit: int | Unset = 20,
    order: EventsListOrder | Unset = EventsListOrder.DESC,
    page: int | Unset = 1,
    starting_after: str | Unset = UNSET,
    type_: str | Unset = UNSET,
    api_version: EventsListApiVersion | Unset = UNSET,

) -> Error | EventListEnvelope | None:
    """ List events

     The team's events of this mode, newest first, exactly as they are delivered.

    Args:
        created_after (datetime.datetime | Unset):
        created_before (datetime.datetime | Unset):
        ending_before (str | Unset):
        limit (int | Unset):  Default: 20.
        order (EventsListOrder | Unset):  Default: EventsListOrder.DESC.
        page (int | Unset):  Default: 1.
        starting_after (str | Unset):
        type_ (str | Unset):
        api_version (EventsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventListEnvelope
     """


    return sync_detailed(
        client=client,
created_after=created_after,
created_before=created_before,
ending_before=ending_before,
limit=limit,
order=order,
page=page,
starting_after=starting_after,
type_=type_,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    limit: int | Unset = 20,
    order: EventsListOrder | Unset = EventsListOrder.DESC,
    page: int | Unset = 1,
    starting_after: str | Unset = UNSET,
    type_: str | Unset = UNSET,
    api_version: EventsListApiVersion | Unset = UNSET,

) -> Response[Error | EventListEnvelope]:
    """ List events

     The team's events of this mode, newest first, exactly as they are delivered.

    Args:
        created_after (datetime.datetime | Unset):
        created_before (datetime.datetime | Unset):
        ending_before (str | Unset):
        limit (int | Unset):  Default: 20.
        order (EventsListOrder | Unset):  Default: EventsListOrder.DESC.
        page (int | Unset):  Default: 1.
        starting_after (str | Unset):
        type_ (str | Unset):
        api_version (EventsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventListEnvelope]
     """


    kwargs = _get_kwargs(
        created_after=created_after,
created_before=created_before,
ending_before=ending_before,
limit=limit,
order=order,
page=page,
starting_after=starting_after,
type_=type_,
api_version=api_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    limit: int | Unset = 20,
    order: EventsListOrder | Unset = EventsListOrder.DESC,
    page: int | Unset = 1,
    starting_after: str | Unset = UNSET,
    type_: str | Unset = UNSET,
    api_version: EventsListApiVersion | Unset = UNSET,

) -> Error | EventListEnvelope | None:
    """ List events

     The team's events of this mode, newest first, exactly as they are delivered.

    Args:
        created_after (datetime.datetime | Unset):
        created_before (datetime.datetime | Unset):
        ending_before (str | Unset):
        limit (int | Unset):  Default: 20.
        order (EventsListOrder | Unset):  Default: EventsListOrder.DESC.
        page (int | Unset):  Default: 1.
        starting_after (str | Unset):
        type_ (str | Unset):
        api_version (EventsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventListEnvelope
     """


    return (await asyncio_detailed(
        client=client,
created_after=created_after,
created_before=created_before,
ending_before=ending_before,
limit=limit,
order=order,
page=page,
starting_after=starting_after,
type_=type_,
api_version=api_version,

    )).parsed
