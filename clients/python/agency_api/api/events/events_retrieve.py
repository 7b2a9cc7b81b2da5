from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.event_envelope import EventEnvelope
from ...models.events_retrieve_api_version import EventsRetrieveApiVersion
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    event_id: str,
    *,
    api_version: EventsRetrieveApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/events/{event_id}".format(event_id=quote(str(event_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | EventEnvelope | None:
    if response.status_code == 200:
        response_200 = EventEnvelope.from_dict(response.json())



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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | EventEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    event_id: str,
    *,
    client: AuthenticatedClient,
    api_version: EventsRetrieveApiVersion | Unset = UNSET,

) -> Response[Error | EventEnvelope]:
    """ Read an event

     One event, exactly as it is delivered.

    Args:
        event_id (str):
        api_version (EventsRetrieveApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventEnvelope]
     """


    kwargs = _get_kwargs(
        event_id=event_id,
api_version=api_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    event_id: str,
    *,
    client: AuthenticatedClient,
    api_version: EventsRetrieveApiVersion | Unset = UNSET,

) -> Error | EventEnvelope | None:
    """ Read an event

     One event, exactly as it is delivered.

    Args:
        event_id (str):
        api_version (EventsRetrieveApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventEnvelope
     """


    return sync_detailed(
        event_id=event_id,
client=client,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    event_id: str,
    *,
    client: AuthenticatedClient,
    api_version: EventsRetrieveApiVersion | Unset = UNSET,

) -> Response[Error | EventEnvelope]:
    """ Read an event

     One event, exactly as it is delivered.

    Args:
        event_id (str):
        api_version (EventsRetrieveApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventEnvelope]
     """


    kwargs = _get_kwargs(
        event_id=event_id,
api_version=api_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    event_id: str,
    *,
    client: AuthenticatedClient,
    api_version: EventsRetrieveApiVersion | Unset = UNSET,

) -> Error | EventEnvelope | None:
    """ Read an event

     One event, exactly as it is delivered.

    Args:
        event_id (str):
        api_version (EventsRetrieveApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventEnvelope
     """


    return (await asyncio_detailed(
        event_id=event_id,
client=client,
api_version=api_version,

    )).parsed
