from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.wallet_withdrawals_list_api_version import WalletWithdrawalsListApiVersion
from ...models.withdrawal_list_envelope import WithdrawalListEnvelope
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    limit: int | Unset = 20,
    page: int | Unset = 1,
    status: str | Unset = UNSET,
    api_version: WalletWithdrawalsListApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["page"] = page

    params["status"] = status


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/wallet/withdrawals",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | WithdrawalListEnvelope | None:
    if response.status_code == 200:
        response_200 = WithdrawalListEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | WithdrawalListEnvelope]:
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
    status: str | Unset = UNSET,
    api_version: WalletWithdrawalsListApiVersion | Unset = UNSET,

) -> Response[Error | WithdrawalListEnvelope]:
    """ List withdrawals

     The team's withdrawals of this mode, newest first; filter by status.

    Args:
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        status (str | Unset):
        api_version (WalletWithdrawalsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WithdrawalListEnvelope]
     """


    kwargs = _get_kwargs(
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
    limit: int | Unset = 20,
    page: int | Unset = 1,
    status: str | Unset = UNSET,
    api_version: WalletWithdrawalsListApiVersion | Unset = UNSET,

) -> Error | WithdrawalListEnvelope | None:
    """ List withdrawals

     The team's withdrawals of this mode, newest first; filter by status.

    Args:
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        status (str | Unset):
        api_version (WalletWithdrawalsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WithdrawalListEnvelope
     """


    return sync_detailed(
        client=client,
limit=limit,
page=page,
status=status,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    page: int | Unset = 1,
    status: str | Unset = UNSET,
    api_version: WalletWithdrawalsListApiVersion | Unset = UNSET,

) -> Response[Error | WithdrawalListEnvelope]:
    """ List withdrawals

     The team's withdrawals of this mode, newest first; filter by status.

    Args:
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        status (str | Unset):
        api_version (WalletWithdrawalsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WithdrawalListEnvelope]
     """


    kwargs = _get_kwargs(
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
    limit: int | Unset = 20,
    page: int | Unset = 1,
    status: str | Unset = UNSET,
    api_version: WalletWithdrawalsListApiVersion | Unset = UNSET,

) -> Error | WithdrawalListEnvelope | None:
    """ List withdrawals

     The team's withdrawals of this mode, newest first; filter by status.

    Args:
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        status (str | Unset):
        api_version (WalletWithdrawalsListApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WithdrawalListEnvelope
     """


    return (await asyncio_detailed(
        client=client,
limit=limit,
page=page,
status=status,
api_version=api_version,

    )).parsed
