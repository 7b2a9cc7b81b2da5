"""The Python steps of regenerating the published clients (bin/clients runs every step):
`schema` writes clients/openapi.json, `python` regenerates clients/python, `postman` drops the
random ids from the collection openapi-to-postmanv2 wrote."""

from django.core.management.base import BaseCommand

from api.published_clients import PYTHON_CLIENT, clean_postman, generate_python, write_schema

STEPS = {
    "schema": write_schema,
    "python": lambda: generate_python(PYTHON_CLIENT),
    "postman": clean_postman,
}


class Command(BaseCommand):
    help = "One step of regenerating the published clients (bin/clients runs them all)."

    def add_arguments(self, parser):
        parser.add_argument("step", choices=sorted(STEPS))

    def handle(self, *args, step: str, **options):
        STEPS[step]()
        self.stdout.write(f"clients: {step} done.")
