"""Exchange rates to BRL behind one interface.

`StaticRates` reads a table from settings (the default, deterministic). `PtaxRates` asks Banco
Central do Brasil's PTAX service (the official selling rate of the latest closing bulletin),
caches each rate, and falls back to the static table when the service cannot be reached or does
not quote the currency. The rate used is locked into each offer by the caller."""

import logging
from abc import ABC, abstractmethod
from datetime import timedelta
from decimal import Decimal

import requests
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from core.timestamps import business_date

logger = logging.getLogger(__name__)

PTAX_URL = (
    "https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata/"
    "CotacaoMoedaDia(moeda=@moeda,dataCotacao=@dataCotacao)"
)
PTAX_CURRENCIES = frozenset({"USD", "EUR", "GBP", "CHF", "JPY", "CAD", "AUD", "DKK", "NOK", "SEK"})
PTAX_LOOKBACK_DAYS = 7  # weekends and holidays have no bulletin: use the latest one
PTAX_CACHE_SECONDS = 3600
PTAX_TIMEOUT_SECONDS = 3


class UnknownCurrency(LookupError):
    pass


class RateProvider(ABC):
    @abstractmethod
    def rate(self, currency: str) -> Decimal:
        """BRL for one unit of `currency` (1 for BRL). Raises UnknownCurrency."""


class StaticRates(RateProvider):
    def __init__(self, table: dict[str, str] | None = None):
        table = table if table is not None else settings.FX_STATIC_RATES
        self.table = {code: Decimal(value) for code, value in table.items()}
        self.table["BRL"] = Decimal("1")

    def rate(self, currency: str) -> Decimal:
        try:
            return self.table[currency]
        except KeyError:
            raise UnknownCurrency(currency) from None


class PtaxRates(RateProvider):
    def __init__(
        self, *, fallback: RateProvider | None = None, session: requests.Session | None = None
    ):
        self.fallback = fallback or StaticRates()
        self.session = session or requests.Session()

    def rate(self, currency: str) -> Decimal:
        if currency == "BRL":
            return Decimal("1")
        if currency not in PTAX_CURRENCIES:
            return self.fallback.rate(currency)
        cache_key = f"fx:ptax:{currency}"
        cached = cache.get(cache_key)
        if cached is not None:
            return Decimal(cached)
        try:
            rate = self._fetch(currency)
        except (requests.RequestException, ValueError, KeyError) as exc:
            logger.warning("PTAX unavailable for %s (%s); using the static rate", currency, exc)
            return self.fallback.rate(currency)
        cache.set(cache_key, str(rate), PTAX_CACHE_SECONDS)
        return rate

    def _fetch(self, currency: str) -> Decimal:
        today = business_date(timezone.now())
        for back in range(PTAX_LOOKBACK_DAYS):
            day = today - timedelta(days=back)
            response = self.session.get(
                PTAX_URL,
                timeout=PTAX_TIMEOUT_SECONDS,
                params={
                    "@moeda": f"'{currency}'",
                    "@dataCotacao": f"'{day:%m-%d-%Y}'",
                    "$format": "json",
                },
            )
            response.raise_for_status()
            quotes = response.json(parse_float=Decimal)["value"]
            if quotes:  # the last bulletin of the day is the closing PTAX
                return Decimal(quotes[-1]["cotacaoVenda"])
        raise ValueError(f"no PTAX bulletin for {currency} in {PTAX_LOOKBACK_DAYS} days")


def rate_provider() -> RateProvider:
    if settings.FX_PROVIDER == "ptax":
        return PtaxRates()
    return StaticRates()
