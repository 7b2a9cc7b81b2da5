# Every time a person reads is São Paulo time (settings.TIME_ZONE), with seconds, and says so.
DATE_FORMAT = "d/m/Y"
DATETIME_FORMAT = r"d/m/Y H:i:s \(\h\o\r\á\r\i\o \d\e \B\r\a\s\í\l\i\a\)"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i:s"
TIME_FORMAT = "H:i:s"
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "."
NUMBER_GROUPING = 3
