from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.wallet_withdrawals_get_api_version import WalletWithdrawalsGetApiVersion
from ...models.withdrawal_envelope import WithdrawalEnvelope
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    withdrawal_id: str,
    *,
    api_version: WalletWithdrawalsGetApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/wallet/withdrawals/{withdrawal_id}".format(withdrawal_id=quote(str(withdrawal_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | WithdrawalEnvelope | None:
    if response.status_code == 200:
        response_200 = WithdrawalEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | WithdrawalEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    withdrawal_id: str,
    *,
    client: AuthenticatedClient,
    api_version: WalletWithdrawalsGetApiVersion | Unset = UNSET,

) -> Response[Error | WithdrawalEnvelope]:
    """ Read a withdrawal

     Its status as the payment provider's transfer last reported it, and the key's holder.

    Args:
        withdrawal_id (str):
        api_version (WalletWithdrawalsGetApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WithdrawalEnvelope]
     """


    kwargs = _get_kwargs(
        withdrawal_id=withdrawal_id,
api_version=api_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    withdrawal_id: str,
    *,
    client: AuthenticatedClient,
    api_version: WalletWithdrawalsGetApiVersion | Unset = UNSET,

) -> Error | WithdrawalEnvelope | None:
    """ Read a withdrawal

     Its status as the payment provider's transfer last reported it, and the key's holder.

    Args:
        withdrawal_id (str):
        api_version (WalletWithdrawalsGetApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WithdrawalEnvelope
     """


    return sync_detailed(
        withdrawal_id=withdrawal_id,
client=client,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    withdrawal_id: str,
    *,
    client: AuthenticatedClient,
    api_version: WalletWithdrawalsGetApiVersion | Unset = UNSET,

) -> Response[Error | WithdrawalEnvelope]:
    """ Read a withdrawal

     Its status as the payment provider's transfer last reported it, and the key's holder.

    Args:
        withdrawal_id (str):
        api_version (WalletWithdrawalsGetApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WithdrawalEnvelope]
     """


    kwargs = _get_kwargs(
        withdrawal_id=withdrawal_id,
api_version=api_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    withdrawal_id: str,
    *,
    client: AuthenticatedClient,
    api_version: WalletWithdrawalsGetApiVersion | Unset = UNSET,

) -> Error | WithdrawalEnvelope | None:
    """ Read a withdrawal

     Its status as the payment provider's transfer last reported it, and the key's holder.

    Args:
        withdrawal_id (str):
        api_version (WalletWithdrawalsGetApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WithdrawalEnvelope
     """


    return (await asyncio_detailed(
        withdrawal_id=withdrawal_id,
client=client,
api_version=api_version,

    )).parsed
