from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.client_create_request import ClientCreateRequest
from ...models.client_envelope import ClientEnvelope
from ...models.clients_create_api_version import ClientsCreateApiVersion
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: ClientCreateRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: ClientsCreateApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/clients",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ClientEnvelope | Error | None:
    if response.status_code == 201:
        response_201 = ClientEnvelope.from_dict(response.json())



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
    *,
    client: AuthenticatedClient,
    body: ClientCreateRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: ClientsCreateApiVersion | Unset = UNSET,

) -> Response[ClientEnvelope | Error]:
    """ Create a client

     A client record: name and e-mail (unique in the mode), and optionally phone, CPF or CNPJ (check
    digits verified), a Brazilian-shaped address and metadata. Name it in a booking with `client_id`.

    Args:
        idempotency_key (str | Unset):
        api_version (ClientsCreateApiVersion | Unset):
        body (ClientCreateRequest): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClientEnvelope | Error]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,
api_version=api_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: ClientCreateRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: ClientsCreateApiVersion | Unset = UNSET,

) -> ClientEnvelope | Error | None:
    """ Create a client

     A client record: name and e-mail (unique in the mode), and optionally phone, CPF or CNPJ (check
    digits verified), a Brazilian-shaped address and metadata. Name it in a booking with `client_id`.

    Args:
        idempotency_key (str | Unset):
        api_version (ClientsCreateApiVersion | Unset):
        body (ClientCreateRequest): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClientEnvelope | Error
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ClientCreateRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: ClientsCreateApiVersion | Unset = UNSET,

) -> Response[ClientEnvelope | Error]:
    """ Create a client

     A client record: name and e-mail (unique in the mode), and optionally phone, CPF or CNPJ (check
    digits verified), a Brazilian-shaped address and metadata. Name it in a booking with `client_id`.

    Args:
        idempotency_key (str | Unset):
        api_version (ClientsCreateApiVersion | Unset):
        body (ClientCreateRequest): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClientEnvelope | Error]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,
api_version=api_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ClientCreateRequest,
    idempotency_key: str | Unset = UNSET,
    api_version: ClientsCreateApiVersion | Unset = UNSET,

) -> ClientEnvelope | Error | None:
    """ Create a client

     A client record: name and e-mail (unique in the mode), and optionally phone, CPF or CNPJ (check
    digits verified), a Brazilian-shaped address and metadata. Name it in a booking with `client_id`.

    Args:
        idempotency_key (str | Unset):
        api_version (ClientsCreateApiVersion | Unset):
        body (ClientCreateRequest): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClientEnvelope | Error
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,
api_version=api_version,

    )).parsed
