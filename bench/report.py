"""Write the figures of the latest benchmark run into docs/performance.md, from bench/results/*.md.

    .venv/bin/python bench/report.py [--output docs/performance.md]

bin/bench runs every benchmark (each writes its own table to bench/results/) and then this.
Each section is the bench's own output: figures with p50/p99 or rates, and their ratio against a
baseline measured in the same run. The targets table says whether this run met each target and,
for a missed one, by how much and what bounds it; a missing result file is reported as not run.

The page is written by hand except for two generated blocks, each between its markers
(`<!-- bench-report:targets:start -->` … `:end -->`, and the same for `runs`): this script
replaces what is between them and leaves the rest of the page as it is.
"""

import argparse
import os
import platform
import re
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results"
PAGE = REPO / "docs" / "performance.md"
BLOCKS = ("targets", "runs")

SECTIONS = [
    ("wallet_debits", "Wallet: debits per second on one hot wallet", "bench/wallet_debits.py"),
    (
        "http",
        "HTTP under gunicorn as production serves it (gthread): balance and search vs a bare view",
        "bench/http_load.py",
    ),
    ("search", "Flight search: server-side time by stage", "bench/search.py"),
    ("bookings", "Instant bookings end to end", "bench/bookings.py"),
    ("webhooks", "Webhook deliveries", "bench/webhooks.py"),
    (
        "webhooks_backlog",
        "Webhook deliveries, the worker alone on a backlog",
        "bench/webhooks.py --backlog",
    ),
    (
        "slow_supplier",
        "Another team's balance and bookings while one team's searches wait on a slow supplier",
        "bench/slow_supplier.py",
    ),
    (
        "slow_receiver",
        "Another team's ticketing while one team's webhook receiver answers in 4.5 s, on a small "
        "install's worker",
        "bench/slow_receiver.py",
    ),
    (
        "load_growth",
        "How debits and bookings grow with load: 1, 8, 32 clients; 1 and 100 wallets",
        "bench/load_growth.py",
    ),
    (
        "request_log",
        "What the API request log costs a request: the balance with the log off and on",
        "bench/request_log.py",
    ),
    (
        "profile_hotpaths",
        "Where the time goes: balance, search and one delivery attempt, profiled",
        "bench/profile_hotpaths.py",
    ),
    (
        "profile_webhooks",
        "Where the time goes: deliveries to one endpoint, one by one and in batches, profiled",
        "bench/profile_webhooks.py --batch 20",
    ),
]

# What holds each figure back when it misses its target: the profiles of the run show it, and
# docs/performance.md ("What bounds each figure") says what each path does per request.
BOUNDS = {
    "balance": (
        "CPU, and mostly guarantees: beyond the bare view the balance runs one Redis command "
        "(the key's generation, which makes revocation immediate, and the rate-limit window: "
        "about a fifth of the difference in the parts profiled alone), one PostgreSQL query "
        "(the ledger's balance, about as much), DRF's Request and Response (negotiation, the "
        "rate-limit headers, orjson) and DRF's dispatch; the servers' CPU (PostgreSQL, Redis) "
        "comes on top (CPU per answer by process in the HTTP section; the balance's parts in "
        'the runs below; docs/performance.md, "API requests: the balance")'
    ),
    "search": (
        "the answer's own per-offer work in the gunicorn workers: rendering 55 offers, the "
        "sandbox building them, packing and storing them (a booking must find the offer when "
        "the answer is sent), against a view that copies the same bytes. Without storing at "
        "all it would still be about 0.13 ×: no guarantee given up would reach 0.3 × (the "
        "search's stages alone and the CPU per answer by process in the runs below; "
        'docs/performance.md, "The flight search")'
    ),
    "slow_supplier": (
        "the other team's requests wait for a free thread: the searches hold one thread each "
        "while the supplier answers, and the rest share the cores with them (the serving model "
        "in the page above; the table of the run below)"
    ),
    "slow_receiver_ticketing": (
        "the worker's processes: a slow receiver holds delivery threads, not processes "
        '(docs/decisions.md, "Delivery pool"), so `issue_tickets` waits only for a process '
        "busy with another task, or for the CPU the delivery threads, gunicorn and PostgreSQL "
        "share (the table of the run below)"
    ),
    "slow_receiver_backlog": (
        "the slow team's caps: at most 2 of its deliveries in flight to its endpoint "
        "(WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT), and an attempt that failed during the "
        "slowness waits for its retry (5 minutes) or the sweep (every 15 s) (the table of the "
        "run below)"
    ),
    "debits": (
        "the wallet's row lock, taken by every debit in turn, and the Python CPU per debit of the "
        "client processes, which share the cores with PostgreSQL (the run below; "
        'docs/performance.md, "Wallet debits")'
    ),
    "bookings": (
        "CPU: the Python work of each booking (validation, the sandbox issuing tickets, events, "
        "e-mail rows) on the cores the server, PostgreSQL and the client share; the wallet's "
        "lock is held a few percent of the time (the run below)"
    ),
    "first_attempt": (
        "the broker's round trip and the worker's hand-off of the batch to a delivery thread, "
        "on the cores the bench's own producer shares (the run below)"
    ),
    "memory": (
        "searches served at once: a worker boots at about 121 MB, and each search in flight "
        "holds about 3 MB of transient objects (55 offers priced, rendered, packed) that the "
        "allocator keeps once freed; one worker measured 134 MB after 1,100 searches one at a "
        "time, 177 MB after 16 at once, then levelling off near 210 MB (docs/performance.md, "
        '"Memory"; RSS and PSS by worker in the HTTP section)'
    ),
    "kept_alive": (
        "the worker process's Python per delivery (the POST through the SSRF-checked session, "
        "the record's statement, the claim spread over its batch): its delivery threads overlap "
        "their waits on the receiver and PostgreSQL but share one core's worth of Python, on "
        "the cores the receiver and PostgreSQL also use, against a loop of bare POSTs on one "
        "connection (the profile of deliveries in batches, in the runs below)"
    ),
}


def _number(pattern: str, text: str, group: int = 1) -> float | None:
    found = re.search(pattern, text)
    return float(found.group(group).replace(",", "")) if found else None


def _row(target: str, figure: str | None, met: bool | None) -> str:
    if figure is None:
        return f"| {target} | not run | — |"
    verdict = "measured" if met is None else ("yes" if met else "no")
    return f"| {target} | {figure} | {verdict} |"


def figures(results: dict[str, str]) -> list[str]:
    """The figures measured without a target of their own, read from the tables of this run."""
    bookings = results.get("bookings", "")
    rate = _number(r"bookings per second[^|]*\| ([\d.]+)", bookings)
    share_row = r"share of a booking's time holding the (?:wallet )?lock[^|]*\| ([\d.]+)"
    share = _number(share_row, bookings)
    stored = _number(r"\*\*total stored per search\*\* \| \*\*([\d,]+)", results.get("search", ""))
    webhooks = results.get("webhooks", "")
    deliveries = _number(r"signed deliveries per second, one worker \| ([\d.]+)", webhooks)
    first_p50 = _number(r"commit → first attempt received, p50 ms \| ([\d.]+)", webhooks)
    first_p99 = _number(r"commit → first attempt received, p99 ms \| ([\d.]+)", webhooks)
    growth_text = results.get("load_growth", "")
    # | other team's instant bookings/s | idle | busy | busy / idle |
    other_row = r"\| other team's instant bookings/s \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|"
    slow = results.get("slow_supplier", "")
    other_idle, other_busy = _number(other_row, slow), _number(other_row, slow, group=2)
    receiver = results.get("slow_receiver", "")
    hook = (
        r"confirm → its own `booking.ticketed` webhook received, {} s \| ([\d.]+|not received) \|"
    )
    hook_p50 = re.search(hook.format("p50"), receiver)
    hook_max = re.search(hook.format("max"), receiver)
    growth = re.findall(
        r"\*\*(debits|bookings), (\d+) wallets?\*\*: .*?\(([\d.]+) × from (\d+) to (\d+)[,)]",
        growth_text,
    )
    rows = [
        (
            "instant bookings per second, and the share of their time holding the wallet lock",
            f"{rate} /s, lock held {share} % of the time" if rate is not None else None,
        ),
        (
            "signed webhook deliveries per second (burst), commit → first attempt p50 / p99",
            f"{deliveries} /s; {first_p50} / {first_p99} ms" if deliveries is not None else None,
        ),
        (
            "growth with load, most clients against one",
            "; ".join(
                f"{kind} on {wallets} wallet{'s' if wallets != '1' else ''}: {factor} × "
                f"({low} → {high} clients)"
                for kind, wallets, factor, low, high in growth
            )
            + (" (loaded machine)" if "Measured on a loaded machine" in growth_text else "")
            if growth
            else None,
        ),
        ("bytes stored per search", f"{stored:,.0f} B" if stored is not None else None),
        (
            "another team's instant bookings per second, idle → while 16 searches of one team "
            "wait on the supplier",
            f"{other_idle:g} → {other_busy:g} /s" if other_busy is not None else None,
        ),
        (
            "another team's own `booking.ticketed` webhook, confirm → received, p50 / max, while "
            "one team's receiver answers each delivery in 4.5 s (small install's worker)",
            f"{hook_p50.group(1)} / {hook_max.group(1)} s" if hook_p50 and hook_max else None,
        ),
    ]
    return [
        "| figure | this run |",
        "|---|---|",
        *(f"| {figure} | {'not run' if value is None else value} |" for figure, value in rows),
    ]


def _met(value: float | None, target: float, *, at_most: bool = False) -> bool | None:
    if value is None:
        return None
    return value <= target if at_most else value >= target


def targets(results: dict[str, str]) -> list[str]:
    """Each target against this run's figure; for a missed one, by how much and what bounds it."""
    wallet, http = results.get("wallet_debits", ""), results.get("http", "")
    webhooks, bookings = results.get("webhooks", ""), results.get("bookings", "")
    # | ours, N processes | debits/s (rounds) | p50 | p99 | ratio | lost updates | …
    ours_row = r"\| ours, \d+ processes \|[^|]*\|[^|]*\|[^|]*\| ([\d.]+) \| (\d+) \|"
    debits, lost = _number(ours_row, wallet), _number(ours_row, wallet, group=2)
    # | endpoint | requests/s | p50 | p99 | ratio vs bare view | …
    balance = _number(
        r"\| GET /api/v1/wallet/balance[^|]*\|[^|]*\|[^|]*\|[^|]*\| ([\d.]+) \|", http
    )
    search = _number(r"same response bytes: ([\d.]+) of its requests/s", http)
    search_p50 = _number(r"\*\*total \(server side\)\*\* \| \**([\d.]+)", results.get("search", ""))
    # Deliveries: the worker alone on a backlog (--backlog), as the bare POST loops it is
    # compared with run alone; beside it, the burst's figure, with this bench committing the
    # events on the same cores meanwhile.
    backlog = results.get("webhooks_backlog", "")
    new_connection, new_connection_text = _deliveries(
        r"ratio ours / new-connection baseline \| ([\d.]+)", backlog, webhooks
    )
    kept_alive, kept_alive_text = _deliveries(
        r"ratio ours / baseline \| ([\d.]+)", backlog, webhooks
    )
    first_p50 = _number(r"commit → first attempt received, p50 ms \| ([\d.]+)", webhooks)
    rate = _number(r"bookings per second[^|]*\| ([\d.]+)", bookings)
    rss = _number(r"Largest worker RSS ([\d.]+) MB", http)
    slow = results.get("slow_supplier", "")
    slow_p99 = _number(r"balance p99 under [\d.]+ ms while the searches wait: ([\d.]+) ms", slow)
    slow_ratio = _number(r"its idle p99 \([\d.]+ ms\): ([\d.]+) ×", slow)
    receiver = results.get("slow_receiver", "")
    ticketing, ticketing_text, ticketing_met = _slow_receiver_ticketing(receiver)
    backlog, backlog_text, backlog_met = _slow_receiver_backlog(receiver)
    debits_figure = None
    if debits is not None and lost is not None:
        debits_figure = f"{debits:.2f} ×, {lost:.0f} lost"
    rows = [
        (
            "hot-wallet debits vs raw pgbench (8 processes) ≥ 0.7 ×, 0 lost updates",
            debits_figure,
            None if debits is None else debits >= 0.7 and lost == 0,
            _short_by(debits, 0.7) + BOUNDS["debits"],
        ),
        (
            "`GET /wallet/balance` vs bare Django JSON view ≥ 0.5 ×",
            balance,
            _met(balance, 0.5),
            _short_by(balance, 0.5) + BOUNDS["balance"],
        ),
        (
            "search vs bare view returning the same bytes ≥ 0.3 ×",
            search,
            _met(search, 0.3),
            _short_by(search, 0.3) + BOUNDS["search"],
        ),
        (
            "search p50 ≤ 30 ms server side",
            search_p50,
            _met(search_p50, 30, at_most=True),
            BOUNDS["search"],
        ),
        (
            "webhook deliveries vs bare POST, new HTTPS connection each ≥ 0.5 ×",
            new_connection_text,
            _met(new_connection, 0.5),
            "",
        ),
        (
            "webhook deliveries vs bare POST on one kept-alive connection ≥ 0.5 ×",
            kept_alive_text,
            _met(kept_alive, 0.5),
            _short_by(kept_alive, 0.5) + BOUNDS["kept_alive"],
        ),
        (
            "commit → first delivery attempt, p50 < 20 ms",
            first_p50,
            _met(first_p50, 19.99, at_most=True),
            _over_by(first_p50, 20.0, "ms") + BOUNDS["first_attempt"],
        ),
        (
            "instant bookings per second (sandbox) ≥ 30",
            rate,
            _met(rate, 30),
            (f"needs {30 / rate:.2f} × this run's rate; " if rate else "") + BOUNDS["bookings"],
        ),
        (
            "16 searches of one team waiting 1.5 s on the supplier: another team's balance "
            "p99 < 100 ms",
            slow_p99,
            _met(slow_p99, 99.99, at_most=True),
            BOUNDS["slow_supplier"],
        ),
        (
            "the same, against that balance's idle p99 < 3 ×",
            slow_ratio,
            _met(slow_ratio, 2.99, at_most=True),
            BOUNDS["slow_supplier"],
        ),
        (
            "one team's receiver answering each delivery in 4.5 s, a small install's worker: "
            "another team's confirm → ticketed p99 < 5 s",
            ticketing_text,
            ticketing_met,
            _over_by(ticketing, 5.0, "s") + BOUNDS["slow_receiver_ticketing"],
        ),
        (
            "the same: the slow team's backlog delivered ≤ 60 s after its receiver recovers",
            backlog_text,
            backlog_met,
            (_over_by(backlog, 60.0, "s") if backlog is not None else "")
            + BOUNDS["slow_receiver_backlog"],
        ),
        (
            "resident memory per gunicorn worker after the bench ≤ 150 MB",
            rss,
            _met(rss, 150, at_most=True),
            _over_by(rss, 150.0, "MB") + BOUNDS["memory"],
        ),
    ]
    lines = [
        "| target | this run | met | if missed: by how much, and what bounds it |",
        "|---|---|---|---|",
    ]
    for target, figure, met, bound in rows:
        if isinstance(figure, float):
            unit = " ms" if "ms" in target else " MB" if "MB" in target else ""
            unit = unit or ("" if "per second" in target else " ×")
            figure = f"{figure:g}{unit}"
        lines.append(f"{_row(target, figure, met)} {bound if met is False else '—'} |")
    return lines


def _deliveries(pattern: str, backlog: str, burst: str) -> tuple[float | None, str | None]:
    """The worker-alone ratio (else the burst's) and how the report shows both."""
    alone, during_burst = _number(pattern, backlog), _number(pattern, burst)
    if alone is None:
        return during_burst, None if during_burst is None else f"{during_burst:g} × (burst)"
    shown = f"{alone:g} × (worker alone)"
    if during_burst is not None:
        shown += f"; {during_burst:g} × while this bench commits the burst"
    return alone, shown


def _slow_receiver_ticketing(text: str) -> tuple[float | None, str | None, bool | None]:
    """Another team's confirm → ticketed p99 (seconds), as shown, and whether under 5 s. A run
    with bookings not ticketed by the bench's deadline shows "over <deadline> s (…)"."""
    found = re.search(
        r"confirm → ticketed p99 under [\d.]+ s: (over )?([\d.]+) s( \([^)]*\))?", text
    )
    if not found:
        return None, None, None
    value = float(found.group(2))
    if found.group(1):
        return value, f"> {value:g} s{found.group(3)}", False
    return value, f"{value:g} s", value < 5.0


def _slow_receiver_backlog(text: str) -> tuple[float | None, str | None, bool | None]:
    """Seconds from the slow team's receiver recovering to its last event received, as shown,
    and whether within 60 s; "not within <deadline> s (n of m events missing)" otherwise."""
    found = re.search(r"of its receiver recovering: ([\d.]+) s", text)
    if found:
        value = float(found.group(1))
        return value, f"{value:g} s", value <= 60.0
    missing = re.search(r"of its receiver recovering: not within ([\d.]+) s \(([^)]*)\)", text)
    if missing:
        return None, f"not within {float(missing.group(1)):g} s ({missing.group(2)})", False
    return None, None, None


def _over_by(value: float | None, limit: float, unit: str) -> str:
    """How far over its limit a duration is: "26.2 s over the 5 s limit; "."""
    if value is None or value <= limit:
        return ""
    return f"{value - limit:.1f} {unit} over the {limit:g} {unit} limit; "


def _short_by(ratio: float | None, target: float) -> str:
    """How much faster the figure must get: "needs 1.25 × this run's rate; "."""
    if not ratio:
        return ""
    return f"needs {target / ratio:.2f} × this run's rate; "


@dataclass(frozen=True)
class Run:
    """Where and when the figures were measured, as the report states it."""

    at: datetime
    commit: str
    machine: str
    cpus: int | None
    python: str
    load: float

    @classmethod
    def here(cls) -> "Run":
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],  # noqa: S607
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        return cls(
            at=datetime.now(UTC),
            commit=commit,
            machine=platform.machine(),
            cpus=os.cpu_count(),
            python=platform.python_version(),
            load=os.getloadavg()[0],
        )


def render(results: dict[str, str], run: Run) -> dict[str, str]:
    """The two generated blocks of docs/performance.md: the targets, and every bench's tables."""
    summary = [
        f"Measured by `bin/bench` at commit `{run.commit}`, {run.at:%Y-%m-%d %H:%M} UTC, on "
        f"{run.machine}, {run.cpus} CPUs, Python {run.python}, load average before the report "
        f"{run.load:.2f}. Every figure was measured in that run, each against its baseline "
        "measured in the same run. Figures on a shared or busy machine move a lot: compare "
        "ratios, not absolute numbers.",
        "",
        *targets(results),
        "",
        "Measured without a target:",
        "",
        *figures(results),
    ]
    runs: list[str] = []
    for name, title, script in SECTIONS:
        runs += [f"### {title} (`{script}`)", ""]
        text = results.get(name)
        runs += [_fold_listings(_demote_headings(text)).strip() if text else "Not run.", ""]
    return {"targets": "\n".join(summary), "runs": "\n".join(runs).strip()}


def write_blocks(page: Path, blocks: dict[str, str]) -> None:
    """Replace what is between each block's markers; the rest of the page stays as written."""
    text = page.read_text()
    for name, content in blocks.items():
        start, end = f"<!-- bench-report:{name}:start -->", f"<!-- bench-report:{name}:end -->"
        if text.count(start) != 1 or text.count(end) != 1 or text.index(start) > text.index(end):
            raise SystemExit(f"{page}: needs one {start} followed by one {end}")
        before, rest = text.split(start)
        after = rest.split(end)[1]
        text = f"{before}{start}\n\n{content}\n\n{end}{after}"
    page.write_text(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=PAGE)
    args = parser.parse_args()
    results = {
        name: (RESULTS / f"{name}.md").read_text()
        for name, _, _ in SECTIONS
        if (RESULTS / f"{name}.md").exists()
    }
    write_blocks(args.output, render(results, Run.here()))
    print(f"written to {args.output}")
    return 0


def _demote_headings(text: str) -> str:
    """A bench's own headings go under the page's "### <bench>" heading, its highest at "####"."""
    levels = [len(m) for m in re.findall(r"^(#+) ", text, flags=re.M)]
    shift = 4 - min(levels, default=4)
    return re.sub(r"^(#+) ", lambda m: "#" * (len(m.group(1)) + shift) + " ", text, flags=re.M)


def _fold_listings(text: str) -> str:
    """Long listings (the profiles' cProfile tables) folded, so the page stays readable."""
    return re.sub(
        r"^```\n(.*?)^```$",
        lambda m: f"<details><summary>listing</summary>\n\n```\n{m.group(1)}```\n\n</details>",
        text,
        flags=re.M | re.S,
    )


if __name__ == "__main__":
    sys.exit(main())
