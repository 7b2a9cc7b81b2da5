"""What the wallet does when another app's rows change (connected in `WalletConfig.ready`).

Agencies sit below the wallet (the layers in pyproject.toml), so `team_create` does not open
the team's wallet: the wallet app opens it when the team is first saved.
"""

from typing import Any

from agencies.models import Team
from wallet.services import wallet_create


def team_wallet_open(
    sender: type[Team], instance: Team, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    """A new team gets its live wallet in the transaction that saves the team (`team_create`'s).
    Rows loaded as they are (`loaddata`, `raw`) bring their own wallet."""
    if created and not raw:
        wallet_create(team=instance)
