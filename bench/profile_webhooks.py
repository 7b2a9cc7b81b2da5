"""Per-delivery cost of a webhook attempt, for real: the SQL it sends, the CPU time it takes in
this process and its Python calls, each attempt POSTed to the local HTTPS receiver (another
process) through webhooks/http.py, as a worker sends them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/profile_webhooks.py [--deliveries 300] [--top 25] [--batch 20]

In a scratch database (bench/harness.py), on production settings. Each attempt's event is
recorded first (not measured), its queue message not sent; then `delivery_attempt(id)` runs, as
the Celery task does. CPU time is this process's (time.process_time): it does not move with the
machine's load as wall-clock time does; the receiver's work is not in it. Reports the
statements of one warm attempt, CPU ms per attempt (median of rounds), and cProfile's calls.
With `--batch N`, the same for `deliveries_send_batch` (what the batch task runs) over backlogs
of N due deliveries of one endpoint, per delivery.
"""

import argparse
import cProfile
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.harness import profile_text, scratch_django  # noqa: E402 - needs sys.path

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK")


def run(deliveries: int, top: int, url: str) -> str:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.kit.factories import make_endpoint, make_team, record
    from webhooks.models import Delivery
    from webhooks.services import delivery_attempt
    from webhooks.tasks import deliver_webhook, deliver_webhooks

    team = make_team("Profiled webhooks").team
    make_endpoint(team, url)
    # The attempts are made here: no queue messages.
    deliver_webhook.delay = deliver_webhooks.delay = lambda *args, **kwargs: None

    def new_delivery() -> int:
        # One at a time: with a backlog, each attempt would hand its slot on to the next
        # delivery (leasing it to a queue message that is not sent here).
        event = record(team)
        return Delivery.objects.filter(event=event).values_list("pk", flat=True).get()

    def attempt(delivery_id: int) -> None:
        made = delivery_attempt(delivery_id)
        assert made is not None and made.succeeded, made and made.error

    for _ in range(5):  # warm: imports, the first connection
        attempt(new_delivery())

    one = new_delivery()
    with CaptureQueriesContext(connection) as captured:
        attempt(one)
    queries = [q["sql"] for q in captured.captured_queries]
    statements = [q for q in queries if not q.startswith(TRANSACTION_CONTROL)]

    # CPU per attempt: rounds of `deliveries // 5` attempts each, the median round.
    per_round = max(deliveries // 5, 1)
    cpu_ms = []
    wall_ms = []
    for _ in range(5):
        cpu = wall = 0.0
        for _ in range(per_round):
            delivery_id = new_delivery()
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            attempt(delivery_id)
            cpu += time.process_time() - cpu_start
            wall += time.perf_counter() - wall_start
        cpu_ms.append(cpu * 1000 / per_round)
        wall_ms.append(wall * 1000 / per_round)

    profiler = cProfile.Profile(time.process_time)  # CPU, not time spent waiting
    for _ in range(per_round):
        delivery_id = new_delivery()
        profiler.enable()
        attempt(delivery_id)
        profiler.disable()
    total_calls, table = profile_text(profiler, top)

    lines = [
        "## delivery_attempt, answered 200 by the HTTPS receiver",
        "",
        f"{len(queries)} statements per attempt ({len(statements)} besides transaction control):",
        "",
    ]
    lines += [f"{i}. `{sql[:400]}`" for i, sql in enumerate(queries, 1)]
    lines += [
        "",
        f"CPU per attempt, this process: {statistics.median(cpu_ms):.2f} ms "
        f"(rounds of {per_round}: {', '.join(f'{v:.2f}' for v in cpu_ms)})",
        f"wall per attempt: {statistics.median(wall_ms):.2f} ms",
        f"{total_calls / per_round:,.0f} Python function calls per attempt (cProfile, "
        "timed in CPU time)",
        "",
        "```",
        table.strip(),
        "```",
    ]
    return "\n".join(lines)


def run_batches(deliveries: int, batch: int, top: int, url: str) -> str:
    """`deliveries_send_batch`, as the batch task runs it, over backlogs of `batch` due
    deliveries of one endpoint (recorded first, not measured): CPU and statements per
    delivery."""
    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.kit.factories import make_endpoint, make_team, record
    from webhooks.services import deliveries_send_batch
    from webhooks.tasks import deliver_webhook, deliver_webhooks

    # The production default unless larger: a backlog smaller than it is a batch that is not
    # full (no look for more at its end), as a lone delivery is.
    settings.WEBHOOK_BATCH_SIZE = max(batch, settings.WEBHOOK_BATCH_SIZE)
    team = make_team(f"Profiled batches of {batch}").team
    endpoint = make_endpoint(team, url)
    deliver_webhook.delay = deliver_webhooks.delay = lambda *args, **kwargs: None

    def backlog() -> None:
        for _ in range(batch):
            record(team)

    def send() -> None:
        made = deliveries_send_batch(endpoint.pk)
        assert len(made) == batch and all(a.succeeded for a in made), made

    for _ in range(3):  # warm
        backlog()
        send()

    backlog()
    with CaptureQueriesContext(connection) as captured:
        send()
    queries = [q["sql"] for q in captured.captured_queries]
    statements = [q for q in queries if not q.startswith(TRANSACTION_CONTROL)]

    batches_per_round = max(deliveries // 5 // batch, 1)
    cpu_ms = []
    wall_ms = []
    for _ in range(5):
        cpu = wall = 0.0
        for _ in range(batches_per_round):
            backlog()
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            send()
            cpu += time.process_time() - cpu_start
            wall += time.perf_counter() - wall_start
        cpu_ms.append(cpu * 1000 / (batches_per_round * batch))
        wall_ms.append(wall * 1000 / (batches_per_round * batch))

    profiler = cProfile.Profile(time.process_time)
    for _ in range(batches_per_round):
        backlog()
        profiler.enable()
        send()
        profiler.disable()
    total_calls, table = profile_text(profiler, top)
    per = batches_per_round * batch
    lines = [
        f"## deliveries_send_batch, batches of {batch}, answered 200 by the HTTPS receiver",
        "",
        f"{len(queries)} statements per batch of {batch} ({len(statements)} besides transaction "
        f"control): {len(queries) / batch:.2f} per delivery ({len(statements) / batch:.2f})",
        "",
    ]
    lines += [f"{i}. `{sql[:300]}`" for i, sql in enumerate(queries[:12], 1)]
    lines += [
        "",
        f"CPU per delivery, this process: {statistics.median(cpu_ms):.2f} ms "
        f"(rounds of {per}: {', '.join(f'{v:.2f}' for v in cpu_ms)})",
        f"wall per delivery: {statistics.median(wall_ms):.2f} ms",
        f"{total_calls / per:,.0f} Python function calls per delivery (cProfile)",
        "",
        "```",
        table.strip(),
        "```",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deliveries", type=int, default=300)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument(
        "--batch",
        type=int,
        action="append",
        default=[],
        help="also profile deliveries_send_batch with backlogs of this size (repeatable)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch_dir:
        log_path = Path(scratch_dir) / "received.jsonl"
        receiver = subprocess.Popen(  # noqa: S603 - fixed argument list
            [sys.executable, "-m", "tests.kit.receiver", "--port", "0", "--log", log_path],
            cwd=REPO,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            info = json.loads(receiver.stdout.readline())  # type: ignore[union-attr]
            env = {
                "WEBHOOKS_ALLOWED_NETWORKS": "127.0.0.0/8",
                "REQUESTS_CA_BUNDLE": info["ca_path"],
                "EMAIL_URL": "dummymail://",
            }
            with scratch_django("profile_webhooks", env):
                print(run(args.deliveries, args.top, info["url"]))
                for batch in args.batch:
                    print()
                    print(run_batches(args.deliveries, batch, args.top, info["url"]))
        finally:
            receiver.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
