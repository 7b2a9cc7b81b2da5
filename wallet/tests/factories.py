from decimal import Decimal

from wallet.services import wallet_credit


def fund(team, amount: str, *, reference_id: str = "rch_seed", live_mode: bool = True):
    """Put money in a team's wallet the way a completed recharge does."""
    return wallet_credit(
        team=team,
        live_mode=live_mode,
        amount=Decimal(amount),
        reference_type="recharge",
        reference_id=reference_id,
        description="Seed recharge",
        payment_method="pix",
    )
