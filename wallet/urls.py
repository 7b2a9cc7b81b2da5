from django.urls import path

from wallet import apis, notifications, pages

urlpatterns = [
    path("wallet/balance", apis.WalletBalanceApi.as_view(), name="wallet-balance"),
    path("wallet/transactions", apis.WalletTransactionsApi.as_view(), name="wallet-transactions"),
    path("wallet/recharge", apis.RechargeCreateApi.as_view(), name="wallet-recharge"),
    path(
        "wallet/recharge/<str:recharge_id>",
        apis.RechargeDetailApi.as_view(),
        name="wallet-recharge-detail",
    ),
    path(
        "wallet/recharge/<str:recharge_id>/simulate-payment",
        apis.RechargeSimulatePaymentApi.as_view(),
        name="wallet-recharge-simulate-payment",
    ),
    path("wallet/withdrawals", apis.WithdrawalListApi.as_view(), name="wallet-withdrawals"),
    path(
        "wallet/withdrawals/<str:withdrawal_id>",
        apis.WithdrawalDetailApi.as_view(),
        name="wallet-withdrawal-detail",
    ),
    path("pix/qr/<str:recharge_id>", pages.pix_qr, name="pix-qr"),
    path("boleto/<str:recharge_id>", pages.boleto_page, name="boleto-page"),
    path("boleto/<str:recharge_id>/pdf", pages.boleto_pdf, name="boleto-pdf"),
    path(
        "payments/<str:provider_name>/notifications",
        notifications.provider_notification,
        name="payment-notifications",
    ),
]
