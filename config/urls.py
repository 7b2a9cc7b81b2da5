from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from core.apis import api_not_found, health

api_v1 = [
    path("schema", SpectacularAPIView.as_view(), name="schema"),
    path("docs", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    # The panel's language switch (Django's set_language view: POST, kept in a cookie).
    path("i18n/", include("django.conf.urls.i18n")),
    path("health", health, name="health"),
    path("api/v1/", include(api_v1)),
    path("api/v1/", include("wallet.urls")),
    path("api/v1/", include("flights.urls")),
    path("api/v1/", include("bookings.urls")),
    path("api/v1/", include("webhooks.urls")),
    # Any other /api/ path: our 404 in the error shape (also when DEBUG is on).
    re_path(r"^api/", api_not_found),
]

handler400 = "core.apis.handler400"
handler403 = "core.apis.handler403"
handler404 = "core.apis.handler404"
handler500 = "core.apis.handler500"
