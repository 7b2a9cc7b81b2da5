from wallet.models import Wallet


def wallet_create(*, team) -> Wallet:
    return Wallet.objects.create(team=team)
