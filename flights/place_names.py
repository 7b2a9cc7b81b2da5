"""City names in Brazilian Portuguese, for what people read in pt-BR (the e-mails, the booking
page): "São Paulo", "Brasília", "Lisboa", "Londres", "Nova York", where the airport data
(airportsdata, English and ASCII) says "Sao Paulo", "Brasilia", "Lisbon", "London", "New York".

A reviewed table, not a download: no maintained source gives Portuguese names of the cities of
airports (CLDR has Portuguese names of its time zones' exemplar cities, which miss most of
these, Brasília included, and would name Rio's airports "São Paulo" by their time zone). It
covers every airport the product serves: the sandbox's gateways and its airlines' hubs, and the
search's golden files (flights/tests/test_place_names.py checks it). Keys are IATA city codes
(a multi-airport city: SAO, RIO, LON, NYC...) or airport codes; an airport's own code wins
over its city's (VCP is filed under SAO by IATA but is Campinas). Where the data's city is the
airport's municipality rather than the city people fly to (NAT in São Gonçalo do Amarante,
YUL in Dorval), the table gives the city people know. A city missing here is shown as the
airport data names it. Reviewed against the Portuguese forms in use in Brazil (VOLP / the
Brazilian press), November 2026."""

PT_BR: dict[str, str] = {
    # Brazil
    "BEL": "Belém",
    "BHZ": "Belo Horizonte",
    "BSB": "Brasília",
    "FOR": "Fortaleza",
    "MAO": "Manaus",
    "NAT": "Natal",
    "REC": "Recife",
    "RIO": "Rio de Janeiro",
    "SAO": "São Paulo",
    "SSA": "Salvador",
    "VCP": "Campinas",
    # South America
    "ASU": "Assunção",
    "BOG": "Bogotá",
    "BUE": "Buenos Aires",
    "CCS": "Caracas",
    "GYE": "Guayaquil",
    "LIM": "Lima",
    "MVD": "Montevidéu",
    "SCL": "Santiago",
    "UIO": "Quito",
    # North and Central America, the Caribbean
    "ATL": "Atlanta",
    "BOS": "Boston",
    "CHI": "Chicago",
    "CLT": "Charlotte",
    "CUN": "Cancún",
    "DEN": "Denver",
    "DFW": "Dallas",
    "DTW": "Detroit",
    "EWR": "Newark",
    "FLL": "Fort Lauderdale",
    "HAV": "Havana",
    "HOU": "Houston",
    "LAX": "Los Angeles",
    "MCO": "Orlando",
    "MEX": "Cidade do México",
    "MIA": "Miami",
    "MSP": "Minneapolis",
    "NYC": "Nova York",
    "PHL": "Filadélfia",
    "PTY": "Cidade do Panamá",
    "PUJ": "Punta Cana",
    "SAL": "San Salvador",
    "SEA": "Seattle",
    "SFO": "São Francisco",
    "SJO": "San José",
    "SLC": "Salt Lake City",
    "TPA": "Tampa",
    "WAS": "Washington",
    "YTO": "Toronto",
    "YUL": "Montreal",
    "YVR": "Vancouver",
    # Europe
    "AMS": "Amsterdã",
    "BCN": "Barcelona",
    "BRU": "Bruxelas",
    "CPH": "Copenhague",
    "DUB": "Dublin",
    "FRA": "Frankfurt",
    "GVA": "Genebra",
    "IST": "Istambul",
    "LIS": "Lisboa",
    "LON": "Londres",
    "MAD": "Madri",
    "MIL": "Milão",
    "MUC": "Munique",
    "OPO": "Porto",
    "PAR": "Paris",
    "ROM": "Roma",
    "VIE": "Viena",
    "ZRH": "Zurique",
    # Africa and the Middle East
    "ADD": "Adis Abeba",
    "AUH": "Abu Dhabi",
    "CAI": "Cairo",
    "CMN": "Casablanca",
    "CPT": "Cidade do Cabo",
    "DOH": "Doha",
    "DXB": "Dubai",
    "JNB": "Joanesburgo",
    "LOS": "Lagos",
    "NBO": "Nairóbi",
    "TLV": "Tel Aviv",
    # Asia and Oceania
    "AKL": "Auckland",
    "BJS": "Pequim",
    "BKK": "Bangcoc",
    "BOM": "Mumbai",
    "DEL": "Nova Délhi",
    "HKG": "Hong Kong",
    "MEL": "Melbourne",
    "SEL": "Seul",
    "SHA": "Xangai",
    "SIN": "Singapura",
    "SYD": "Sydney",
    "TYO": "Tóquio",
}
