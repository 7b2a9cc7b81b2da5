from decimal import Decimal

from django.db import models


class Wallet(models.Model):
    """A team's live BRL wallet. (Test mode has no wallet row: its balance is a constant.)"""

    team = models.OneToOneField("agencies.Team", on_delete=models.PROTECT, related_name="wallet")
    balance = models.DecimalField(max_digits=14, decimal_places=2, default=Decimal("0.00"))
    currency = models.CharField(max_length=3, default="BRL", editable=False)
    last_transaction_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(balance__gte=0), name="wallet_balance_not_negative"
            ),
        ]

    def __str__(self):
        return f"Wallet of {self.team}"
