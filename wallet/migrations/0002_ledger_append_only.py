"""On PostgreSQL, a trigger makes the ledger append-only for every client of the database, not
only for our models: an UPDATE or DELETE of a transaction row raises. (TRUNCATE, used to reset
test databases, does not fire row triggers.)"""

from django.db import migrations

CREATE = """
CREATE FUNCTION wallet_transaction_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'wallet_transaction is append-only (% refused)', TG_OP;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER wallet_transaction_append_only
BEFORE UPDATE OR DELETE ON wallet_transaction
FOR EACH ROW EXECUTE FUNCTION wallet_transaction_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS wallet_transaction_append_only ON wallet_transaction;
DROP FUNCTION IF EXISTS wallet_transaction_append_only();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("wallet", "0001_initial")]

    operations = [migrations.RunPython(create, drop)]
