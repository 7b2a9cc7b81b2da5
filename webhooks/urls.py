from django.urls import path

from webhooks import apis

urlpatterns = [
    path("webhooks", apis.WebhookListApi.as_view(), name="webhooks"),
    path("webhooks/<str:webhook_id>", apis.WebhookDetailApi.as_view(), name="webhook-detail"),
]
