from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.reports_sales_api_version import ReportsSalesApiVersion
from ...models.sales_report_envelope import SalesReportEnvelope
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    *,
    end_date: datetime.date,
    limit: int | Unset = 20,
    page: int | Unset = 1,
    start_date: datetime.date,
    api_version: ReportsSalesApiVersion | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(api_version, Unset):
        headers["Api-Version"] = str(api_version)




    

    params: dict[str, Any] = {}

    json_end_date = end_date.isoformat()
    params["end_date"] = json_end_date

    params["limit"] = limit

    params["page"] = page

    json_start_date = start_date.isoformat()
    params["start_date"] = json_start_date


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/reports/sales",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | SalesReportEnvelope | None:
    if response.status_code == 200:
        response_200 = SalesReportEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | SalesReportEnvelope]:
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
    limit: int | Unset = 20,
    page: int | Unset = 1,
    start_date: datetime.date,
    api_version: ReportsSalesApiVersion | Unset = UNSET,

) -> Response[Error | SalesReportEnvelope]:
    """ Sales and commission report

     The team's bookings with money in the period (São Paulo days, both included, at most 366): per
    booking its client, route and travel date, the sale's client amount, cost, markup and fee, its
    changes and extras, its refunds and the agency's net revenue; the period's totals on every page. The
    cost columns sum to the wallet's booking movements of the same days (docs/reports.md).

    Args:
        end_date (datetime.date):
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        start_date (datetime.date):
        api_version (ReportsSalesApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SalesReportEnvelope]
     """


    kwargs = _get_kwargs(
        end_date=end_date,
limit=limit,
page=page,
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
    limit: int | Unset = 20,
    page: int | Unset = 1,
    start_date: datetime.date,
    api_version: ReportsSalesApiVersion | Unset = UNSET,

) -> Error | SalesReportEnvelope | None:
    """ Sales and commission report

     The team's bookings with money in the period (São Paulo days, both included, at most 366): per
    booking its client, route and travel date, the sale's client amount, cost, markup and fee, its
    changes and extras, its refunds and the agency's net revenue; the period's totals on every page. The
    cost columns sum to the wallet's booking movements of the same days (docs/reports.md).

    Args:
        end_date (datetime.date):
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        start_date (datetime.date):
        api_version (ReportsSalesApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SalesReportEnvelope
     """


    return sync_detailed(
        client=client,
end_date=end_date,
limit=limit,
page=page,
start_date=start_date,
api_version=api_version,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    end_date: datetime.date,
    limit: int | Unset = 20,
    page: int | Unset = 1,
    start_date: datetime.date,
    api_version: ReportsSalesApiVersion | Unset = UNSET,

) -> Response[Error | SalesReportEnvelope]:
    """ Sales and commission report

     The team's bookings with money in the period (São Paulo days, both included, at most 366): per
    booking its client, route and travel date, the sale's client amount, cost, markup and fee, its
    changes and extras, its refunds and the agency's net revenue; the period's totals on every page. The
    cost columns sum to the wallet's booking movements of the same days (docs/reports.md).

    Args:
        end_date (datetime.date):
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        start_date (datetime.date):
        api_version (ReportsSalesApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SalesReportEnvelope]
     """


    kwargs = _get_kwargs(
        end_date=end_date,
limit=limit,
page=page,
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
    limit: int | Unset = 20,
    page: int | Unset = 1,
    start_date: datetime.date,
    api_version: ReportsSalesApiVersion | Unset = UNSET,

) -> Error | SalesReportEnvelope | None:
    """ Sales and commission report

     The team's bookings with money in the period (São Paulo days, both included, at most 366): per
    booking its client, route and travel date, the sale's client amount, cost, markup and fee, its
    changes and extras, its refunds and the agency's net revenue; the period's totals on every page. The
    cost columns sum to the wallet's booking movements of the same days (docs/reports.md).

    Args:
        end_date (datetime.date):
        limit (int | Unset):  Default: 20.
        page (int | Unset):  Default: 1.
        start_date (datetime.date):
        api_version (ReportsSalesApiVersion | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SalesReportEnvelope
     """


    return (await asyncio_detailed(
        client=client,
end_date=end_date,
limit=limit,
page=page,
start_date=start_date,
api_version=api_version,

    )).parsed
