from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.reports_nfse_api_version import ReportsNfseApiVersion
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    *,
    end_date: datetime.date,
    start_date: datetime.date,
    api_version: ReportsNfseApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    params: dict[str, Any] = {}

    json_end_date = end_date.isoformat()
    params["end_date"] = json_end_date

    json_start_date = start_date.isoformat()
    params["start_date"] = json_start_date


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/reports/nfse",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | str | None:
    if response.status_code == 200:
        response_200 = response.text
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    end_date: datetime.date,
    start_date: datetime.date,
    api_version: ReportsNfseApiVersion | Unset = UNSET,

) -> Response[Error | str]:
    """ Export the agency's NFS-e (CSV)

     One line per ticketed booking whose revenue in the period is positive, in Asaas's invoice field
    names (`value` what the customer paid, `deductions` the airline's cost), for the accountant to
    import: an export, not an issuance (docs/reports.md).

    Args:
        end_date (datetime.date):
        start_date (datetime.date):
        api_version (ReportsNfseApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | str]
     """


    kwargs = _get_kwargs(
        end_date=end_date,
start_date=start_date,
api_version=api_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    end_date: datetime.date,
    start_date: datetime.date,
    api_version: ReportsNfseApiVersion | Unset = UNSET,

) -> Error | str | None:
    """ Export the agency's NFS-e (CSV)

     One line per ticketed booking whose revenue in the period is positive, in Asaas's invoice field
    names (`value` what the customer paid, `deductions` the airline's cost), for the accountant to
    import: an export, not an issuance (docs/reports.md).

    Args:
        end_date (datetime.date):
        start_date (datetime.date):
        api_version (ReportsNfseApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | str
     """


    return sync_detailed(
        client=client,
end_date=end_date,
start_date=start_date,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    end_date: datetime.date,
    start_date: datetime.date,
    api_version: ReportsNfseApiVersion | Unset = UNSET,

) -> Response[Error | str]:
    """ Export the agency's NFS-e (CSV)

     One line per ticketed booking whose revenue in the period is positive, in Asaas's invoice field
    names (`value` what the customer paid, `deductions` the airline's cost), for the accountant to
    import: an export, not an issuance (docs/reports.md).

    Args:
        end_date (datetime.date):
        start_date (datetime.date):
        api_version (ReportsNfseApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | str]
     """


    kwargs = _get_kwargs(
        end_date=end_date,
start_date=start_date,
api_version=api_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    end_date: datetime.date,
    start_date: datetime.date,
    api_version: ReportsNfseApiVersion | Unset = UNSET,

) -> Error | str | None:
    """ Export the agency's NFS-e (CSV)

     One line per ticketed booking whose revenue in the period is positive, in Asaas's invoice field
    names (`value` what the customer paid, `deductions` the airline's cost), for the accountant to
    import: an export, not an issuance (docs/reports.md).

    Args:
        end_date (datetime.date):
        start_date (datetime.date):
        api_version (ReportsNfseApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | str
     """


    return (await asyncio_detailed(
        client=client,
end_date=end_date,
start_date=start_date,
api_version=api_version,

    )).parsed
