from django.contrib import admin

from core.admin import ReadOnlyAdmin, TeamScopedAdmin
from wallet.models import Wallet


@admin.register(Wallet)
class WalletAdmin(TeamScopedAdmin, ReadOnlyAdmin):
    list_display = ["team", "balance", "currency", "last_transaction_at"]
    search_fields = ["team__name", "team__id"]
