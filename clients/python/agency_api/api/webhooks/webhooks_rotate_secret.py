from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.webhook_rotate_secret_request import WebhookRotateSecretRequest
from ...models.webhook_secret_rotated_envelope import WebhookSecretRotatedEnvelope
from ...models.webhooks_rotate_secret_api_version import WebhooksRotateSecretApiVersion
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    webhook_id: str,
    *,
    body: WebhookRotateSecretRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    api_version: WebhooksRotateSecretApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhooks/{webhook_id}/rotate_secret".format(webhook_id=quote(str(webhook_id), safe=""),),
    }

    
    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | WebhookSecretRotatedEnvelope | None:
    if response.status_code == 200:
        response_200 = WebhookSecretRotatedEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | WebhookSecretRotatedEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: WebhookRotateSecretRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    api_version: WebhooksRotateSecretApiVersion | Unset = UNSET,

) -> Response[Error | WebhookSecretRotatedEnvelope]:
    """ Roll a webhook's secret

     A new signing `secret`, shown only in this response. The one it replaces keeps signing deliveries
    (`X-Service-Signature-Previous`) for `expire_previous_in_hours` (24 by default, 0 to 168).

    Args:
        webhook_id (str):
        idempotency_key (str | Unset):
        api_version (WebhooksRotateSecretApiVersion | Unset):
        body (WebhookRotateSecretRequest | Unset): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookSecretRotatedEnvelope]
     """


    kwargs = _get_kwargs(
        webhook_id=webhook_id,
body=body,
idempotency_key=idempotency_key,
api_version=api_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: WebhookRotateSecretRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    api_version: WebhooksRotateSecretApiVersion | Unset = UNSET,

) -> Error | WebhookSecretRotatedEnvelope | None:
    """ Roll a webhook's secret

     A new signing `secret`, shown only in this response. The one it replaces keeps signing deliveries
    (`X-Service-Signature-Previous`) for `expire_previous_in_hours` (24 by default, 0 to 168).

    Args:
        webhook_id (str):
        idempotency_key (str | Unset):
        api_version (WebhooksRotateSecretApiVersion | Unset):
        body (WebhookRotateSecretRequest | Unset): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookSecretRotatedEnvelope
     """


    return sync_detailed(
        webhook_id=webhook_id,
client=client,
body=body,
idempotency_key=idempotency_key,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: WebhookRotateSecretRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    api_version: WebhooksRotateSecretApiVersion | Unset = UNSET,

) -> Response[Error | WebhookSecretRotatedEnvelope]:
    """ Roll a webhook's secret

     A new signing `secret`, shown only in this response. The one it replaces keeps signing deliveries
    (`X-Service-Signature-Previous`) for `expire_previous_in_hours` (24 by default, 0 to 168).

    Args:
        webhook_id (str):
        idempotency_key (str | Unset):
        api_version (WebhooksRotateSecretApiVersion | Unset):
        body (WebhookRotateSecretRequest | Unset): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookSecretRotatedEnvelope]
     """


    kwargs = _get_kwargs(
        webhook_id=webhook_id,
body=body,
idempotency_key=idempotency_key,
api_version=api_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: WebhookRotateSecretRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    api_version: WebhooksRotateSecretApiVersion | Unset = UNSET,

) -> Error | WebhookSecretRotatedEnvelope | None:
    """ Roll a webhook's secret

     A new signing `secret`, shown only in this response. The one it replaces keeps signing deliveries
    (`X-Service-Signature-Previous`) for `expire_previous_in_hours` (24 by default, 0 to 168).

    Args:
        webhook_id (str):
        idempotency_key (str | Unset):
        api_version (WebhooksRotateSecretApiVersion | Unset):
        body (WebhookRotateSecretRequest | Unset): Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookSecretRotatedEnvelope
     """


    return (await asyncio_detailed(
        webhook_id=webhook_id,
client=client,
body=body,
idempotency_key=idempotency_key,
api_version=api_version,

    )).parsed
