# Every time a person reads is São Paulo time (settings.TIME_ZONE), with seconds, and says so.
DATE_FORMAT = "Y-m-d"
DATETIME_FORMAT = r"Y-m-d H:i:s \(\B\r\a\s\í\l\i\a \t\i\m\e\)"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i:s"
TIME_FORMAT = "H:i:s"
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
