from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.offers_seat_maps_api_version import OffersSeatMapsApiVersion
from ...models.seat_map_list import SeatMapList
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    offer_id: str,
    *,
    api_version: OffersSeatMapsApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/offers/{offer_id}/seat_maps".format(offer_id=quote(str(offer_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | SeatMapList | None:
    if response.status_code == 200:
        response_200 = SeatMapList.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | SeatMapList]:
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
    api_version: OffersSeatMapsApiVersion | Unset = UNSET,

) -> Response[Error | SeatMapList]:
    """ Read an offer's seat maps

     One map per segment in Duffel's shape (cabins, rows, sections, elements); each seat lists a service
    per passenger who may take it, priced for the team. An empty list: the seat is taken. Buy a seat
    with an instant booking's `services`.

    Args:
        offer_id (str):
        api_version (OffersSeatMapsApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SeatMapList]
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
    api_version: OffersSeatMapsApiVersion | Unset = UNSET,

) -> Error | SeatMapList | None:
    """ Read an offer's seat maps

     One map per segment in Duffel's shape (cabins, rows, sections, elements); each seat lists a service
    per passenger who may take it, priced for the team. An empty list: the seat is taken. Buy a seat
    with an instant booking's `services`.

    Args:
        offer_id (str):
        api_version (OffersSeatMapsApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SeatMapList
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
    api_version: OffersSeatMapsApiVersion | Unset = UNSET,

) -> Response[Error | SeatMapList]:
    """ Read an offer's seat maps

     One map per segment in Duffel's shape (cabins, rows, sections, elements); each seat lists a service
    per passenger who may take it, priced for the team. An empty list: the seat is taken. Buy a seat
    with an instant booking's `services`.

    Args:
        offer_id (str):
        api_version (OffersSeatMapsApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SeatMapList]
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
    api_version: OffersSeatMapsApiVersion | Unset = UNSET,

) -> Error | SeatMapList | None:
    """ Read an offer's seat maps

     One map per segment in Duffel's shape (cabins, rows, sections, elements); each seat lists a service
    per passenger who may take it, priced for the team. An empty list: the seat is taken. Buy a seat
    with an instant booking's `services`.

    Args:
        offer_id (str):
        api_version (OffersSeatMapsApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SeatMapList
     """


    return (await asyncio_detailed(
        offer_id=offer_id,
client=client,
api_version=api_version,

    )).parsed
