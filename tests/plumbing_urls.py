"""Small API views that exercise core's plumbing (pagination, idempotency, errors) through
the real stack: the project's URLs plus these, mounted under /api/v1/_plumbing/."""

from django.urls import include, path
from rest_framework import serializers

from agencies.models import Client
from api.apis import ApiView, envelope
from api.pagination import PaginationFilterSerializer, paginate
from config.urls import handler400, handler403, handler404, handler500  # noqa: F401
from config.urls import urlpatterns as project_urlpatterns
from core.exceptions import Conflict


class ClientOut(serializers.ModelSerializer):
    class Meta:
        model = Client
        fields = ["id", "full_name", "email"]


class AlreadyThere(Conflict):
    """A plumbing error (registered under a test module: not in docs/errors.md)."""

    code = "conflict"
    message = "Already there"


class ClientListApi(ApiView):
    def get(self, request):
        params = PaginationFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        queryset = Client.objects.filter(team=request.user.team, live_mode=request.user.live_mode)
        items, pagination = paginate(queryset.order_by("email"), **params.validated_data)
        return envelope(ClientOut(items, many=True).data, pagination=pagination)

    def post(self, request):
        data = ClientOut(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data["email"].startswith("conflict"):
            raise AlreadyThere()
        client = Client.objects.create(
            team=request.user.team, live_mode=request.user.live_mode, **data.validated_data
        )
        return envelope(ClientOut(client).data, status=201)


class BoomApi(ApiView):
    def get(self, request):
        raise RuntimeError("secret internals: password=hunter2")

    def post(self, request):
        Client.objects.create(
            team=request.user.team,
            live_mode=request.user.live_mode,
            full_name="Half written",
            email="half@example.com",
        )
        raise RuntimeError("crashed after a write")


def plain_boom(request):
    """A plain Django view (not DRF) that crashes: Django's handler500 answers."""
    raise RuntimeError("a plain view crashed")


plumbing = [
    path("clients", ClientListApi.as_view()),
    path("boom", BoomApi.as_view()),
    path("plain-boom", plain_boom),
]

urlpatterns = [path("api/v1/_plumbing/", include(plumbing)), *project_urlpatterns]
