from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.client_list_envelope import ClientListEnvelope
from ...models.clients_list_api_version import ClientsListApiVersion
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    limit: int | Unset = 20,
    page: int | Unset = 1,
    q: str | Unset = UNSET,
    api_version: ClientsListApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["page"] = page

    params["q"] = q


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/clients",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ClientListEnvelope | Error | None:
    if response.status_code == 200:
        response_200 = ClientListEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ClientListEnvelope | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    page: int | Unset = 1,
    q: str | Unset = UNSET,
    api_version: ClientsListApiVersion | Unset = UNSET,

) -> Response[ClientListEnvelope | Error]:
    """ List and search clients

     The team's clients of this mode, newest first. `q` searches the name (accents and case aside), the
    e-mail and the CPF/CNPJ (with or without its punctuation).

    Args:
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        q (str | Unset):
        api_version (ClientsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClientListEnvelope | Error]
     """


    kwargs = _get_kwargs(
        limit=limit,
page=page,
q=q,
api_version=api_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    page: int | Unset = 1,
    q: str | Unset = UNSET,
    api_version: ClientsListApiVersion | Unset = UNSET,

) -> ClientListEnvelope | Error | None:
    """ List and search clients

     The team's clients of this mode, newest first. `q` searches the name (accents and case aside), the
    e-mail and the CPF/CNPJ (with or without its punctuation).

    Args:
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        q (str | Unset):
        api_version (ClientsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClientListEnvelope | Error
     """


    return sync_detailed(
        client=client,
limit=limit,
page=page,
q=q,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    page: int | Unset = 1,
    q: str | Unset = UNSET,
    api_version: ClientsListApiVersion | Unset = UNSET,

) -> Response[ClientListEnvelope | Error]:
    """ List and search clients

     The team's clients of this mode, newest first. `q` searches the name (accents and case aside), the
    e-mail and the CPF/CNPJ (with or without its punctuation).

    Args:
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        q (str | Unset):
        api_version (ClientsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClientListEnvelope | Error]
     """


    kwargs = _get_kwargs(
        limit=limit,
page=page,
q=q,
api_version=api_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    page: int | Unset = 1,
    q: str | Unset = UNSET,
    api_version: ClientsListApiVersion | Unset = UNSET,

) -> ClientListEnvelope | Error | None:
    """ List and search clients

     The team's clients of this mode, newest first. `q` searches the name (accents and case aside), the
    e-mail and the CPF/CNPJ (with or without its punctuation).

    Args:
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        q (str | Unset):
        api_version (ClientsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClientListEnvelope | Error
     """


    return (await asyncio_detailed(
        client=client,
limit=limit,
page=page,
q=q,
api_version=api_version,

    )).parsed
