"""Write docs/errors.md from the error registry and the OpenAPI schema; `--check` only says
whether it is up to date (exit status 1 if not), as the tests and CI do."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from api.error_catalogue import DOC_PATH, generated_schema, render_markdown


class Command(BaseCommand):
    help = "Write docs/errors.md, the catalogue of error codes (--check: fail if it is stale)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--check", action="store_true", help="Do not write; fail if the file is stale."
        )

    def handle(self, *args, check: bool = False, **options):
        path = Path(settings.BASE_DIR) / DOC_PATH
        text = render_markdown(generated_schema())
        current = path.read_text() if path.exists() else None
        if check:
            if current != text:
                raise CommandError(
                    f"{DOC_PATH} is stale: run `manage.py error_catalogue` and commit it."
                )
            self.stdout.write(f"{DOC_PATH} is up to date.")
            return
        path.write_text(text)
        self.stdout.write(f"Wrote {DOC_PATH}.")
