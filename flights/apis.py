from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.response import Response

from api.apis import ApiView
from api.schema import IDEMPOTENCY_KEY_PARAMETER, error_response
from flights.schemas import SearchInputSerializer, SearchResultSerializer
from flights.services import SearchTimings, flight_search
from flights.validation import parse_search_request


def _forget_self(response):
    response.renderer_context.pop("response", None)


class FlightSearchApi(ApiView):
    throttle_scope = "search"  # API_SEARCH_RATE_LIMIT as well as API_RATE_LIMIT

    def dispatch(self, request, *args, **kwargs):
        response = super().dispatch(request, *args, **kwargs)
        # DRF leaves the response in reference cycles (`view.response`, and the renderer
        # context holds the view and, once rendered, the response itself), so a search's
        # result (~1,100 dicts and lists) would outlive the request until the cyclic garbage
        # collector walks it: that costs more than building it. Without those references
        # the response and its result are freed by reference counting as soon as the server
        # has sent it.
        del self.response
        if hasattr(response, "add_post_render_callback"):
            response.add_post_render_callback(_forget_self)
        return response

    @extend_schema(
        operation_id="flights_search",
        tags=["Flights"],
        request=SearchInputSerializer,
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        responses={
            200: SearchResultSerializer,
            400: error_response(
                "Invalid request parameters, Invalid airport code, Invalid date "
                "format or Departure date in the past"
            ),
            422: error_response("No flight supplier connected (live mode)"),
            502: error_response("The flight supplier failed"),
        },
        examples=[
            OpenApiExample(
                "Round trip",
                request_only=True,
                value={
                    "type": "round_trip",
                    "slices": [
                        {"origin": "SAO", "destination": "LIS", "departureDate": "2027-03-10"},
                        {"origin": "LIS", "destination": "SAO", "departureDate": "2027-03-24"},
                    ],
                    "passengers": [{"type": "adult", "count": 2}, {"type": "child", "count": 1}],
                    "cabinClass": "economy",
                },
            )
        ],
    )
    def post(self, request):
        search_request = parse_search_request(request.data)
        timings = SearchTimings()
        result = flight_search(
            team=request.user.team,
            live_mode=request.user.live_mode,
            request=search_request,
            timings=timings,
        )
        return Response(result, headers={"Server-Timing": timings.header()})
