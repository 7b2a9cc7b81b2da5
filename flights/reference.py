"""Reference data about airlines and aircraft: names and logos for rendering offers of any
supplier, and the networks, fleets and fare brands that the sandbox supplier builds its
flights from.

Only airlines whose codes are certain are listed. `ticket_prefix` is the airline's IATA
accounting code, the first three digits of its e-ticket numbers. `currency` is the currency the
sandbox prices the airline's offers in (the one it sells in to a Brazilian agency). `hubs` are
real hubs or main bases; `partners` are real codeshare partners whose flights the airline sells
under its own code. Regions group countries for the sandbox's choice of airlines per route.
"""

from dataclasses import dataclass, field

from flights.models import CabinClass

LOGO_URL = "https://assets.duffel.com/img/airlines/for-light-background/full-color-logo/{iata}.svg"

# --- Aircraft ----------------------------------------------------------------------------------

# Distance bands of a flight, by great-circle length (upper bound in km, inclusive).
BANDS: tuple[tuple[str, int], ...] = (
    ("regional", 800),
    ("short", 2500),
    ("medium", 6500),
    ("long", 15000),
)
BAND_ORDER = {name: index for index, (name, _) in enumerate(BANDS)}

AIRCRAFT: dict[str, str] = {
    "AT7": "ATR 72",
    "E90": "Embraer 190",
    "E95": "Embraer 195",
    "295": "Embraer 195-E2",
    "223": "Airbus A220-300",
    "320": "Airbus A320",
    "32N": "Airbus A320neo",
    "321": "Airbus A321",
    "32Q": "Airbus A321neo",
    "738": "Boeing 737-800",
    "739": "Boeing 737-900",
    "7M8": "Boeing 737 MAX 8",
    "7M9": "Boeing 737 MAX 9",
    "332": "Airbus A330-200",
    "333": "Airbus A330-300",
    "339": "Airbus A330-900neo",
    "359": "Airbus A350-900",
    "388": "Airbus A380-800",
    "748": "Boeing 747-8",
    "772": "Boeing 777-200",
    "77W": "Boeing 777-300ER",
    "788": "Boeing 787-8",
    "789": "Boeing 787-9",
}

# The bands each type is flown on: regional types stay short, narrow-bodies reach the medium
# band (Brazil to Florida or the Caribbean), wide-bodies fly medium and long hauls.
AIRCRAFT_BANDS: dict[str, tuple[str, ...]] = {
    "AT7": ("regional",),
    "E90": ("regional", "short"),
    "E95": ("regional", "short"),
    "295": ("regional", "short"),
    "223": ("regional", "short"),
    "320": ("regional", "short", "medium"),
    "32N": ("regional", "short", "medium"),
    "321": ("regional", "short", "medium"),
    "32Q": ("short", "medium"),
    "738": ("regional", "short", "medium"),
    "739": ("short", "medium"),
    "7M8": ("regional", "short", "medium"),
    "7M9": ("short", "medium"),
    "332": ("medium", "long"),
    "333": ("medium", "long"),
    "339": ("medium", "long"),
    "359": ("medium", "long"),
    "388": ("medium", "long"),
    "748": ("long",),
    "772": ("medium", "long"),
    "77W": ("medium", "long"),
    "788": ("medium", "long"),
    "789": ("medium", "long"),
}


def band(distance_km: float) -> str | None:
    """The band of a flight of that length; None beyond the longest."""
    for name, limit in BANDS:
        if distance_km <= limit:
            return name
    return None


# --- Airlines ----------------------------------------------------------------------------------

STANDARD_CABIN_NAMES: dict[CabinClass, str] = {
    CabinClass.ECONOMY: "Economy",
    CabinClass.PREMIUM_ECONOMY: "Premium Economy",
    CabinClass.BUSINESS: "Business",
    CabinClass.FIRST: "First",
}


@dataclass(frozen=True)
class Airline:
    iata_code: str
    name: str
    country: str  # ISO alpha-2 of its home
    currency: str  # what its sandbox offers are priced in
    ticket_prefix: str  # IATA accounting code: 3 digits
    hubs: tuple[str, ...]  # IATA airports
    fleet: tuple[str, ...]  # IATA aircraft type codes (keys of AIRCRAFT)
    # Fare brands per cabin it sells (CabinClass values), cheapest first; a cabin it does not
    # sell is absent.
    brands: dict[str, tuple[str, ...]]
    partners: tuple[str, ...] = ()  # codeshare partners (IATA codes)
    # A low-cost brand sold only with instant payment (no hold), if any.
    instant_payment_brand: str | None = None
    cabin_names: dict[str, str] = field(default_factory=dict)  # marketing names, by CabinClass

    @property
    def logo_symbol_url(self) -> str:
        return LOGO_URL.format(iata=self.iata_code)

    def cabin_name(self, cabin: CabinClass) -> str:
        return self.cabin_names.get(cabin, STANDARD_CABIN_NAMES[cabin])


_AIRLINES = (
    # Brazil
    Airline(
        iata_code="G3",
        name="GOL Linhas Aéreas",
        country="BR",
        currency="BRL",
        ticket_prefix="127",
        hubs=("GRU", "CGH", "BSB", "GIG"),
        fleet=("738", "7M8"),
        brands={"economy": ("Light", "Classic", "Flex"), "premium_economy": ("Premium",)},
        partners=("AF", "KL", "AA"),
        instant_payment_brand="Light",
    ),
    Airline(
        iata_code="AD",
        name="Azul Linhas Aéreas",
        country="BR",
        currency="BRL",
        ticket_prefix="577",
        hubs=("VCP", "CNF", "REC"),
        fleet=("AT7", "E95", "295", "32N", "332", "339"),
        brands={"economy": ("Basic", "Azul", "Mais Azul"), "business": ("Business",)},
        partners=("TP", "UA"),
        instant_payment_brand="Basic",
    ),
    # LATAM Airlines Brasil sells under LA and tickets on its own accounting code, 957 (the
    # group's LA code tickets on 045 elsewhere); it prices in BRL for Brazilian agencies.
    Airline(
        iata_code="LA",
        name="LATAM Airlines",
        country="BR",
        currency="BRL",
        ticket_prefix="957",
        hubs=("GRU", "CGH", "BSB", "SCL", "LIM"),
        fleet=("320", "32N", "321", "789", "77W"),
        brands={
            "economy": ("Basic", "Light", "Standard", "Full"),
            "premium_economy": ("Premium Economy",),
            "business": ("Premium Business",),
        },
        partners=("DL",),
        cabin_names={"business": "Premium Business"},
    ),
    # Other South America and Central America
    Airline(
        iata_code="AR",
        name="Aerolíneas Argentinas",
        country="AR",
        currency="ARS",
        ticket_prefix="044",
        hubs=("AEP", "EZE"),
        fleet=("E90", "738", "7M8", "332"),
        brands={"economy": ("Promo", "Base", "Plus", "Flex"), "business": ("Club Cóndor",)},
        cabin_names={"business": "Club Cóndor"},
    ),
    Airline(
        iata_code="AV",
        name="Avianca",
        country="CO",
        currency="USD",
        ticket_prefix="134",
        hubs=("BOG", "SAL"),
        fleet=("320", "32N", "788"),
        brands={"economy": ("Basic", "Classic", "Flex"), "business": ("Business",)},
        instant_payment_brand="Basic",
    ),
    Airline(
        iata_code="CM",
        name="Copa Airlines",
        country="PA",
        currency="USD",
        ticket_prefix="230",
        hubs=("PTY",),
        fleet=("738", "7M8", "7M9"),
        brands={
            "economy": ("Economy Basic", "Economy Classic", "Economy Full"),
            "business": ("Business Classic", "Business Full"),
        },
        partners=("G3",),
    ),
    # North America
    Airline(
        iata_code="AA",
        name="American Airlines",
        country="US",
        currency="USD",
        ticket_prefix="001",
        hubs=("MIA", "DFW", "CLT", "JFK", "ORD", "PHL"),
        fleet=("321", "738", "772", "789", "77W"),
        brands={
            "economy": ("Basic Economy", "Main Cabin", "Main Select"),
            "premium_economy": ("Premium Economy",),
            "business": ("Business", "Flagship Business"),
            "first": ("Flagship First",),
        },
        partners=("BA", "IB", "G3"),
        cabin_names={"business": "Flagship Business"},
    ),
    Airline(
        iata_code="UA",
        name="United Airlines",
        country="US",
        currency="USD",
        ticket_prefix="016",
        hubs=("IAH", "EWR", "ORD", "IAD", "DEN", "SFO"),
        fleet=("320", "739", "772", "789"),
        brands={
            "economy": ("Basic Economy", "Economy", "Economy Flexible"),
            "premium_economy": ("Premium Plus",),
            "business": ("Polaris Business",),
        },
        partners=("LH", "AD"),
        cabin_names={"business": "United Polaris"},
    ),
    Airline(
        iata_code="DL",
        name="Delta Air Lines",
        country="US",
        currency="USD",
        ticket_prefix="006",
        hubs=("ATL", "DTW", "MSP", "JFK", "SLC"),
        fleet=("321", "739", "333", "359"),
        brands={
            "economy": ("Basic Economy", "Main Cabin", "Comfort+"),
            "premium_economy": ("Premium Select",),
            "business": ("Delta One",),
        },
        partners=("LA", "AF", "KL"),
        cabin_names={"business": "Delta One"},
    ),
    Airline(
        iata_code="AC",
        name="Air Canada",
        country="CA",
        currency="CAD",
        ticket_prefix="014",
        hubs=("YYZ", "YUL", "YVR"),
        fleet=("223", "7M8", "789", "77W"),
        brands={
            "economy": ("Basic", "Standard", "Flex", "Latitude"),
            "premium_economy": ("Premium Economy",),
            "business": ("Signature Class",),
        },
        partners=("UA", "LH"),
        cabin_names={"business": "Signature Class"},
    ),
    Airline(
        iata_code="AM",
        name="Aeroméxico",
        country="MX",
        currency="MXN",
        ticket_prefix="139",
        hubs=("MEX",),
        fleet=("738", "7M8", "789"),
        brands={"economy": ("Basic", "Classic", "Flex"), "business": ("Premier",)},
        partners=("DL",),
        cabin_names={"business": "Clase Premier"},
    ),
    # Europe
    Airline(
        iata_code="TP",
        name="TAP Air Portugal",
        country="PT",
        currency="EUR",
        ticket_prefix="047",
        hubs=("LIS", "OPO"),
        fleet=("320", "32N", "32Q", "339"),
        brands={
            "economy": ("Discount", "Basic", "Classic", "Plus"),
            "business": ("Executive", "Top Executive"),
        },
        partners=("AD", "UA"),
        cabin_names={"business": "Executive"},
    ),
    Airline(
        iata_code="IB",
        name="Iberia",
        country="ES",
        currency="EUR",
        ticket_prefix="075",
        hubs=("MAD",),
        fleet=("320", "32N", "321", "333", "359"),
        brands={
            "economy": ("Basic", "Classic", "Flexible"),
            "premium_economy": ("Premium Economy",),
            "business": ("Business",),
        },
        partners=("AA", "BA"),
    ),
    Airline(
        iata_code="AF",
        name="Air France",
        country="FR",
        currency="EUR",
        ticket_prefix="057",
        hubs=("CDG",),
        fleet=("223", "320", "321", "359", "77W", "789"),
        brands={
            "economy": ("Light", "Standard", "Flex"),
            "premium_economy": ("Premium Standard", "Premium Flex"),
            "business": ("Business Standard", "Business Flex"),
            "first": ("La Première",),
        },
        partners=("KL", "DL", "G3"),
        cabin_names={"first": "La Première"},
    ),
    Airline(
        iata_code="KL",
        name="KLM",
        country="NL",
        currency="EUR",
        ticket_prefix="074",
        hubs=("AMS",),
        fleet=("295", "738", "333", "77W", "789"),
        brands={
            "economy": ("Light", "Standard", "Flex"),
            "premium_economy": ("Premium Comfort",),
            "business": ("Business Standard", "Business Flex"),
        },
        partners=("AF", "DL", "G3"),
        cabin_names={"premium_economy": "Premium Comfort"},
    ),
    Airline(
        iata_code="LH",
        name="Lufthansa",
        country="DE",
        currency="EUR",
        ticket_prefix="220",
        hubs=("FRA", "MUC"),
        fleet=("320", "32N", "321", "359", "748"),
        brands={
            "economy": ("Economy Light", "Economy Classic", "Economy Flex"),
            "premium_economy": ("Premium Economy",),
            "business": ("Business Saver", "Business Classic", "Business Flex"),
            "first": ("First",),
        },
        partners=("UA", "LA"),
    ),
    Airline(
        iata_code="BA",
        name="British Airways",
        country="GB",
        currency="GBP",
        ticket_prefix="125",
        hubs=("LHR",),
        fleet=("320", "32N", "321", "789", "77W"),
        brands={
            "economy": ("Basic", "Standard", "Flex"),
            "premium_economy": ("World Traveller Plus",),
            "business": ("Club World",),
            "first": ("First",),
        },
        partners=("AA", "IB"),
        cabin_names={"premium_economy": "World Traveller Plus", "business": "Club World"},
    ),
    Airline(
        iata_code="LX",
        name="SWISS",
        country="CH",
        currency="CHF",
        ticket_prefix="724",
        hubs=("ZRH", "GVA"),
        fleet=("223", "320", "32N", "333", "77W"),
        brands={
            "economy": ("Economy Light", "Economy Classic", "Economy Flex"),
            "premium_economy": ("Premium Economy",),
            "business": ("Business",),
            "first": ("First",),
        },
        partners=("LH", "UA"),
    ),
    # Middle East, Africa, Asia and Oceania: for routes the others do not reach. They price in
    # USD, as they do for sales in Brazil.
    Airline(
        iata_code="TK",
        name="Turkish Airlines",
        country="TR",
        currency="USD",
        ticket_prefix="235",
        hubs=("IST",),
        fleet=("32N", "321", "738", "359", "77W", "789"),
        brands={
            "economy": ("EcoFly", "ExtraFly", "PrimeFly"),
            "business": ("BusinessFly", "PrimeBusinessFly"),
        },
        partners=("LH", "UA"),
    ),
    Airline(
        iata_code="EK",
        name="Emirates",
        country="AE",
        currency="USD",
        ticket_prefix="176",
        hubs=("DXB",),
        fleet=("77W", "388"),
        brands={
            "economy": ("Special", "Saver", "Flex", "Flex Plus"),
            "premium_economy": ("Premium Economy",),
            "business": ("Business Saver", "Business Flex"),
            "first": ("First Flex",),
        },
        partners=("G3",),
    ),
    Airline(
        iata_code="QR",
        name="Qatar Airways",
        country="QA",
        currency="USD",
        ticket_prefix="157",
        hubs=("DOH",),
        fleet=("320", "788", "789", "359", "77W", "388"),
        brands={
            "economy": (
                "Economy Lite",
                "Economy Classic",
                "Economy Convenience",
                "Economy Comfort",
            ),
            "business": ("Business Classic", "Business Comfort"),
            "first": ("First",),
        },
        partners=("AA", "BA", "IB"),
    ),
    Airline(
        iata_code="ET",
        name="Ethiopian Airlines",
        country="ET",
        currency="USD",
        ticket_prefix="071",
        hubs=("ADD",),
        fleet=("738", "7M8", "788", "789", "359", "77W"),
        brands={
            "economy": ("Economy Saver", "Economy Classic", "Economy Flex"),
            "business": ("Cloud Nine",),
        },
        partners=("TK", "LH"),
        cabin_names={"business": "Cloud Nine"},
    ),
    Airline(
        iata_code="SQ",
        name="Singapore Airlines",
        country="SG",
        currency="USD",
        ticket_prefix="618",
        hubs=("SIN",),
        fleet=("359", "77W", "388"),
        brands={
            "economy": ("Economy Lite", "Economy Standard", "Economy Flexi"),
            "premium_economy": ("Premium Economy",),
            "business": ("Business",),
            "first": ("Suites",),
        },
        partners=("LH", "LX"),
        cabin_names={"first": "Suites"},
    ),
    Airline(
        iata_code="JL",
        name="Japan Airlines",
        country="JP",
        currency="USD",
        ticket_prefix="131",
        hubs=("HND", "NRT"),
        fleet=("738", "788", "789", "359", "77W"),
        brands={
            "economy": ("Economy Saver", "Economy Standard", "Economy Flex"),
            "premium_economy": ("Premium Economy",),
            "business": ("Business",),
            "first": ("First",),
        },
        partners=("AA", "BA", "QF"),
    ),
    Airline(
        iata_code="QF",
        name="Qantas",
        country="AU",
        currency="USD",
        ticket_prefix="081",
        hubs=("SYD", "MEL"),
        fleet=("738", "332", "333", "789", "388"),
        brands={
            "economy": ("Economy Sale", "Economy Saver", "Economy Flex"),
            "premium_economy": ("Premium Economy",),
            "business": ("Business",),
            "first": ("First",),
        },
        partners=("AA", "JL", "EK"),
    ),
)

AIRLINES: dict[str, Airline] = {airline.iata_code: airline for airline in _AIRLINES}

# Units of each sandbox currency per US dollar: how the sandbox turns its fare model (in USD)
# into each airline's currency. Close to settings.FX_STATIC_RATES, so that BRL prices of the
# same flight are comparable across airlines; not used to price anything for customers.
CURRENCY_PER_USD: dict[str, str] = {
    "USD": "1",
    "BRL": "5.35",
    "EUR": "0.86",
    "GBP": "0.75",
    "CAD": "1.39",
    "MXN": "18.45",
    "ARS": "975",
    "CHF": "0.81",
}

# --- Regions -----------------------------------------------------------------------------------


def codes(text: str) -> frozenset[str]:
    """A set of codes written as one space-separated string, to keep long lists short."""
    return frozenset(text.split())


SOUTH_AMERICA = frozenset(
    {"AR", "BO", "BR", "CL", "CO", "EC", "FK", "GF", "GY", "PE", "PY", "SR", "UY", "VE"}
)
NORTH_AMERICA = frozenset({"US", "CA", "MX"})
CENTRAL_AMERICA_CARIBBEAN = codes(
    "AG AI AW BB BL BQ BS BZ CR CU CW DM DO GD GP GT HN HT JM KN KY LC MF MQ MS NI PA PR "
    "SV SX TC TT VC VG VI"
)
EUROPE = codes(
    "AD AL AT BA BE BG CH CY CZ DE DK EE ES FI FO FR GB GI GR HR HU IE IS IT LI LT LU LV "
    "MC MD ME MK MT NL NO PL PT RO RS SE SI SK SM UA XK"
)


def region(country: str) -> str:
    """The sandbox's region of a country: BR (Brazil on its own), SA, NA, CA (Central
    America and the Caribbean), EU, or OTHER."""
    if country == "BR":
        return "BR"
    if country in SOUTH_AMERICA:
        return "SA"
    if country in NORTH_AMERICA:
        return "NA"
    if country in CENTRAL_AMERICA_CARIBBEAN:
        return "CA"
    if country in EUROPE:
        return "EU"
    return "OTHER"
