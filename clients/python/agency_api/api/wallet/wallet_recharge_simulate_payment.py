from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.recharge_simulated_envelope import RechargeSimulatedEnvelope
from ...models.wallet_recharge_simulate_payment_api_version import WalletRechargeSimulatePaymentApiVersion
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    recharge_id: str,
    *,
    idempotency_key: str | Unset = UNSET,
    api_version: WalletRechargeSimulatePaymentApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/wallet/recharge/{recharge_id}/simulate-payment".format(recharge_id=quote(str(recharge_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | RechargeSimulatedEnvelope | None:
    if response.status_code == 200:
        response_200 = RechargeSimulatedEnvelope.from_dict(response.json())



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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | RechargeSimulatedEnvelope]:
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
    api_version: WalletRechargeSimulatePaymentApiVersion | Unset = UNSET,

) -> Response[Error | RechargeSimulatedEnvelope]:
    """ Pay a test recharge (test keys only)

     Simulates the payer paying a test-mode recharge: it completes and is credited.

    Args:
        recharge_id (str):
        idempotency_key (str | Unset):
        api_version (WalletRechargeSimulatePaymentApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RechargeSimulatedEnvelope]
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
    api_version: WalletRechargeSimulatePaymentApiVersion | Unset = UNSET,

) -> Error | RechargeSimulatedEnvelope | None:
    """ Pay a test recharge (test keys only)

     Simulates the payer paying a test-mode recharge: it completes and is credited.

    Args:
        recharge_id (str):
        idempotency_key (str | Unset):
        api_version (WalletRechargeSimulatePaymentApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RechargeSimulatedEnvelope
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
    api_version: WalletRechargeSimulatePaymentApiVersion | Unset = UNSET,

) -> Response[Error | RechargeSimulatedEnvelope]:
    """ Pay a test recharge (test keys only)

     Simulates the payer paying a test-mode recharge: it completes and is credited.

    Args:
        recharge_id (str):
        idempotency_key (str | Unset):
        api_version (WalletRechargeSimulatePaymentApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RechargeSimulatedEnvelope]
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
    api_version: WalletRechargeSimulatePaymentApiVersion | Unset = UNSET,

) -> Error | RechargeSimulatedEnvelope | None:
    """ Pay a test recharge (test keys only)

     Simulates the payer paying a test-mode recharge: it completes and is credited.

    Args:
        recharge_id (str):
        idempotency_key (str | Unset):
        api_version (WalletRechargeSimulatePaymentApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RechargeSimulatedEnvelope
     """


    return (await asyncio_detailed(
        recharge_id=recharge_id,
client=client,
idempotency_key=idempotency_key,
api_version=api_version,

    )).parsed
