from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.available_service_list import AvailableServiceList
from ...models.error import Error
from ...models.offers_available_services_api_version import OffersAvailableServicesApiVersion
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    offer_id: str,
    *,
    api_version: OffersAvailableServicesApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/offers/{offer_id}/available_services".format(offer_id=quote(str(offer_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AvailableServiceList | Error | None:
    if response.status_code == 200:
        response_200 = AvailableServiceList.from_dict(response.json())



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

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())



        return response_422

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AvailableServiceList | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    offer_id: str,
    *,
    client: AuthenticatedClient,
    api_version: OffersAvailableServicesApiVersion | Unset = UNSET,

) -> Response[AvailableServiceList | Error]:
    """ List an offer's extra bags

     The bags the airline sells with the offer (Duffel's available services), each priced for the team:
    `base_cost_brl` at the offer's locked exchange rate, `client_amount` with the team's markup (no
    fee). Buy them with an instant booking's `services`.

    Args:
        offer_id (str):
        api_version (OffersAvailableServicesApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AvailableServiceList | Error]
     """


    kwargs = _get_kwargs(
        offer_id=offer_id,
api_version=api_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    offer_id: str,
    *,
    client: AuthenticatedClient,
    api_version: OffersAvailableServicesApiVersion | Unset = UNSET,

) -> AvailableServiceList | Error | None:
    """ List an offer's extra bags

     The bags the airline sells with the offer (Duffel's available services), each priced for the team:
    `base_cost_brl` at the offer's locked exchange rate, `client_amount` with the team's markup (no
    fee). Buy them with an instant booking's `services`.

    Args:
        offer_id (str):
        api_version (OffersAvailableServicesApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AvailableServiceList | Error
     """


    return sync_detailed(
        offer_id=offer_id,
client=client,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    offer_id: str,
    *,
    client: AuthenticatedClient,
    api_version: OffersAvailableServicesApiVersion | Unset = UNSET,

) -> Response[AvailableServiceList | Error]:
    """ List an offer's extra bags

     The bags the airline sells with the offer (Duffel's available services), each priced for the team:
    `base_cost_brl` at the offer's locked exchange rate, `client_amount` with the team's markup (no
    fee). Buy them with an instant booking's `services`.

    Args:
        offer_id (str):
        api_version (OffersAvailableServicesApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AvailableServiceList | Error]
     """


    kwargs = _get_kwargs(
        offer_id=offer_id,
api_version=api_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    offer_id: str,
    *,
    client: AuthenticatedClient,
    api_version: OffersAvailableServicesApiVersion | Unset = UNSET,

) -> AvailableServiceList | Error | None:
    """ List an offer's extra bags

     The bags the airline sells with the offer (Duffel's available services), each priced for the team:
    `base_cost_brl` at the offer's locked exchange rate, `client_amount` with the team's markup (no
    fee). Buy them with an instant booking's `services`.

    Args:
        offer_id (str):
        api_version (OffersAvailableServicesApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AvailableServiceList | Error
     """


    return (await asyncio_detailed(
        offer_id=offer_id,
client=client,
api_version=api_version,

    )).parsed
