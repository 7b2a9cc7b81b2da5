from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.client_envelope import ClientEnvelope
from ...models.clients_get_api_version import ClientsGetApiVersion
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    client_id: str,
    *,
    api_version: ClientsGetApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/clients/{client_id}".format(client_id=quote(str(client_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ClientEnvelope | Error | None:
    if response.status_code == 200:
        response_200 = ClientEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ClientEnvelope | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    client_id: str,
    *,
    client: AuthenticatedClient,
    api_version: ClientsGetApiVersion | Unset = UNSET,

) -> Response[ClientEnvelope | Error]:
    """ Read a client

     One client of the team in this mode.

    Args:
        client_id (str):
        api_version (ClientsGetApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClientEnvelope | Error]
     """


    kwargs = _get_kwargs(
        client_id=client_id,
api_version=api_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    client_id: str,
    *,
    client: AuthenticatedClient,
    api_version: ClientsGetApiVersion | Unset = UNSET,

) -> ClientEnvelope | Error | None:
    """ Read a client

     One client of the team in this mode.

    Args:
        client_id (str):
        api_version (ClientsGetApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClientEnvelope | Error
     """


    return sync_detailed(
        client_id=client_id,
client=client,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    client_id: str,
    *,
    client: AuthenticatedClient,
    api_version: ClientsGetApiVersion | Unset = UNSET,

) -> Response[ClientEnvelope | Error]:
    """ Read a client

     One client of the team in this mode.

    Args:
        client_id (str):
        api_version (ClientsGetApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClientEnvelope | Error]
     """


    kwargs = _get_kwargs(
        client_id=client_id,
api_version=api_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    client_id: str,
    *,
    client: AuthenticatedClient,
    api_version: ClientsGetApiVersion | Unset = UNSET,

) -> ClientEnvelope | Error | None:
    """ Read a client

     One client of the team in this mode.

    Args:
        client_id (str):
        api_version (ClientsGetApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClientEnvelope | Error
     """


    return (await asyncio_detailed(
        client_id=client_id,
client=client,
api_version=api_version,

    )).parsed
