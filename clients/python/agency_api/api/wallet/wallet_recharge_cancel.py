from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.recharge_cancel_envelope import RechargeCancelEnvelope
from ...models.wallet_recharge_cancel_api_version import WalletRechargeCancelApiVersion
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    recharge_id: str,
    *,
    idempotency_key: str | Unset = UNSET,
    api_version: WalletRechargeCancelApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/wallet/recharge/{recharge_id}".format(recharge_id=quote(str(recharge_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | RechargeCancelEnvelope | None:
    if response.status_code == 200:
        response_200 = RechargeCancelEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | RechargeCancelEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    recharge_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    api_version: WalletRechargeCancelApiVersion | Unset = UNSET,

) -> Response[Error | RechargeCancelEnvelope]:
    """ Cancel a pending recharge

     The provider's charge is withdrawn, so it can no longer be paid.

    Args:
        recharge_id (str):
        idempotency_key (str | Unset):
        api_version (WalletRechargeCancelApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RechargeCancelEnvelope]
     """


    kwargs = _get_kwargs(
        recharge_id=recharge_id,
idempotency_key=idempotency_key,
api_version=api_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    recharge_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    api_version: WalletRechargeCancelApiVersion | Unset = UNSET,

) -> Error | RechargeCancelEnvelope | None:
    """ Cancel a pending recharge

     The provider's charge is withdrawn, so it can no longer be paid.

    Args:
        recharge_id (str):
        idempotency_key (str | Unset):
        api_version (WalletRechargeCancelApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RechargeCancelEnvelope
     """


    return sync_detailed(
        recharge_id=recharge_id,
client=client,
idempotency_key=idempotency_key,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    recharge_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    api_version: WalletRechargeCancelApiVersion | Unset = UNSET,

) -> Response[Error | RechargeCancelEnvelope]:
    """ Cancel a pending recharge

     The provider's charge is withdrawn, so it can no longer be paid.

    Args:
        recharge_id (str):
        idempotency_key (str | Unset):
        api_version (WalletRechargeCancelApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RechargeCancelEnvelope]
     """


    kwargs = _get_kwargs(
        recharge_id=recharge_id,
idempotency_key=idempotency_key,
api_version=api_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    recharge_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    api_version: WalletRechargeCancelApiVersion | Unset = UNSET,

) -> Error | RechargeCancelEnvelope | None:
    """ Cancel a pending recharge

     The provider's charge is withdrawn, so it can no longer be paid.

    Args:
        recharge_id (str):
        idempotency_key (str | Unset):
        api_version (WalletRechargeCancelApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RechargeCancelEnvelope
     """


    return (await asyncio_detailed(
        recharge_id=recharge_id,
client=client,
idempotency_key=idempotency_key,
api_version=api_version,

    )).parsed
