from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.balance_envelope import BalanceEnvelope
from ...models.error import Error
from ...models.wallet_balance_api_version import WalletBalanceApiVersion
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    api_version: WalletBalanceApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/wallet/balance",
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BalanceEnvelope | Error | None:
    if response.status_code == 200:
        response_200 = BalanceEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BalanceEnvelope | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    api_version: WalletBalanceApiVersion | Unset = UNSET,

) -> Response[BalanceEnvelope | Error]:
    """ Read the wallet balance

     The balance, what pending holds tie up and what is available now, and the debt left by recharges
    reversed after they were credited (a wallet in debt is restricted). In test mode the balance is a
    constant 5000.00 and there is never a debt.

    Args:
        api_version (WalletBalanceApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BalanceEnvelope | Error]
     """


    kwargs = _get_kwargs(
        api_version=api_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    api_version: WalletBalanceApiVersion | Unset = UNSET,

) -> BalanceEnvelope | Error | None:
    """ Read the wallet balance

     The balance, what pending holds tie up and what is available now, and the debt left by recharges
    reversed after they were credited (a wallet in debt is restricted). In test mode the balance is a
    constant 5000.00 and there is never a debt.

    Args:
        api_version (WalletBalanceApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BalanceEnvelope | Error
     """


    return sync_detailed(
        client=client,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    api_version: WalletBalanceApiVersion | Unset = UNSET,

) -> Response[BalanceEnvelope | Error]:
    """ Read the wallet balance

     The balance, what pending holds tie up and what is available now, and the debt left by recharges
    reversed after they were credited (a wallet in debt is restricted). In test mode the balance is a
    constant 5000.00 and there is never a debt.

    Args:
        api_version (WalletBalanceApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BalanceEnvelope | Error]
     """


    kwargs = _get_kwargs(
        api_version=api_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    api_version: WalletBalanceApiVersion | Unset = UNSET,

) -> BalanceEnvelope | Error | None:
    """ Read the wallet balance

     The balance, what pending holds tie up and what is available now, and the debt left by recharges
    reversed after they were credited (a wallet in debt is restricted). In test mode the balance is a
    constant 5000.00 and there is never a debt.

    Args:
        api_version (WalletBalanceApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BalanceEnvelope | Error
     """


    return (await asyncio_detailed(
        client=client,
api_version=api_version,

    )).parsed
