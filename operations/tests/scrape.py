"""Reading /metrics as Prometheus does (a plain module, not a test module): the exposition
parsed with prometheus_client's own parser into {(name, labels): value}."""

from prometheus_client.parser import text_string_to_metric_families

TOKEN = "metrics-token-of-the-tests"

Samples = dict[tuple[str, frozenset], float]


def scrape(client) -> Samples:
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    samples: Samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    """A sample's value; 0 for a labelled series not recorded yet (a counter that is 0)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def grew(before: Samples, after: Samples, name: str, **labels: str) -> float:
    """How much a cumulative series grew between two scrapes (this process's registry is
    shared by every test the process runs, so tests compare, never read absolute counts)."""
    return value(after, name, **labels) - value(before, name, **labels)
