"""Assemble the Markdown report of the latest benchmark run from bench/results/*.md.

    .venv/bin/python bench/report.py [--output docs/benchmark-report.md]

bin/bench runs every benchmark (each writes its own table to bench/results/) and then this.
Each section is the bench's own output: figures with p50/p99 or rates, and their ratio against a
baseline measured in the same run. The targets table says which figure each issue set and
whether this run met it; a missing result file is reported as not run.
"""

import argparse
import os
import platform
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results"

SECTIONS = [
    ("wallet_debits", "Wallet: debits per second on one hot wallet", "bench/wallet_debits.py"),
    ("http", "HTTP under gunicorn: balance and search vs a bare view", "bench/http_load.py"),
    ("search", "Flight search: server-side time by stage", "bench/search.py"),
    ("bookings", "Instant bookings end to end", "bench/bookings.py"),
    ("webhooks", "Webhook deliveries", "bench/webhooks.py"),
    (
        "webhooks_backlog",
        "Webhook deliveries, the worker alone on a backlog",
        "bench/webhooks.py --backlog",
    ),
    (
        "load_growth",
        "How debits and bookings grow with load: 1, 8, 32 clients; 1 and 100 wallets",
        "bench/load_growth.py",
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

# What holds each issue-17 figure back when it misses its target: the profiles above show it,
# docs/performance*.md tell what was cut and what is left.
BOUNDS = {
    "balance": (
        "the gunicorn workers' Python, not waiting: one Redis command (generation and rate "
        "limit), one PostgreSQL query, Django's middleware and DRF's dispatch, against a view "
        "that does none of it (CPU per answer by process in the HTTP section; the balance's "
        "profile below; docs/performance.md)"
    ),
    "search": (
        "per-offer Python in the gunicorn workers: pricing, rendering and storing every offer "
        "of the answer, against a view that copies the same bytes (CPU per answer by process "
        "in the HTTP section; the search's profile below; docs/performance-search.md)"
    ),
    "kept_alive": (
        "the worker's CPU and PostgreSQL round trips per delivery (claim, record, hand over), "
        "against a loop of bare POSTs on one connection (profile: deliveries in batches; "
        "docs/performance-webhooks.md)"
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


def targets(results: dict[str, str]) -> list[str]:
    """The figures the issues set a target for, read from the tables of this run."""
    wallet = results.get("wallet_debits", "")
    # | ours, N processes | debits/s (rounds) | p50 | p99 | ratio | lost updates | …
    ours_row = r"\| ours, \d+ processes \|[^|]*\|[^|]*\|[^|]*\| ([\d.]+) \| (\d+) \|"
    ratio = _number(ours_row, wallet)
    lost = _number(ours_row, wallet, group=2)
    p50 = _number(r"\*\*total \(server side\)\*\* \| \**([\d.]+)", results.get("search", ""))
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
    growth = re.findall(
        r"\*\*(debits|bookings), (\d+) wallets?\*\*: .*?\(([\d.]+) × from (\d+) to (\d+)[,)]",
        growth_text,
    )
    wallet_ok = ratio is not None and lost is not None
    return [
        "| target (issue) | this run | met |",
        "|---|---|---|",
        _row(
            "hot-wallet debits ≥ 0.5 × raw pgbench, zero lost updates (3)",
            f"{ratio:.2f} ×, {lost:.0f} lost" if wallet_ok else None,
            wallet_ok and ratio >= 0.5 and lost == 0,
        ),
        _row(
            "search p50 ≤ 30 ms server side (4)",
            f"{p50:.1f} ms" if p50 is not None else None,
            p50 is not None and p50 <= 30,
        ),
        _row(
            "instant bookings/s and the wallet-lock share (5)",
            f"{rate} /s, lock held {share} % of the time" if rate is not None else None,
            None,
        ),
        _row(
            "signed webhook deliveries/s, commit → first attempt p50/p99 (6)",
            f"{deliveries} /s; {first_p50} / {first_p99} ms" if deliveries is not None else None,
            None,
        ),
        _row(
            "growth with load, most clients vs 1 (17)",
            "; ".join(
                f"{kind} on {wallets} wallet{'s' if wallets != '1' else ''}: {factor} × "
                f"({low} → {high} clients)"
                for kind, wallets, factor, low, high in growth
            )
            + (" (loaded machine)" if "Measured on a loaded machine" in growth_text else "")
            if growth
            else None,
            None,
        ),
        _row(
            "bytes stored per search (12)",
            f"{stored:,.0f} B" if stored is not None else None,
            None,
        ),
    ]


def _met(value: float | None, target: float, *, at_most: bool = False) -> bool | None:
    if value is None:
        return None
    return value <= target if at_most else value >= target


def issue_17_targets(results: dict[str, str]) -> list[str]:
    """Issue 17's table: each figure against its floor in this run, and its target."""
    wallet, http = results.get("wallet_debits", ""), results.get("http", "")
    webhooks, bookings = results.get("webhooks", ""), results.get("bookings", "")
    ours_row = r"\| ours, \d+ processes \|[^|]*\|[^|]*\|[^|]*\| ([\d.]+) \| (\d+) \|"
    debits, lost = _number(ours_row, wallet), _number(ours_row, wallet, group=2)
    # | endpoint | requests/s | p50 | p99 | ratio vs bare view | …
    balance = _number(
        r"\| GET /api/v1/wallet/balance[^|]*\|[^|]*\|[^|]*\|[^|]*\| ([\d.]+) \|", http
    )
    search = _number(r"same response bytes: ([\d.]+) of its requests/s", http)
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
    debits_figure = None
    if debits is not None and lost is not None:
        debits_figure = f"{debits:.2f} ×, {lost:.0f} lost"
    rows = [
        (
            "hot-wallet debits vs raw pgbench (8 processes) ≥ 0.7 ×, 0 lost updates",
            debits_figure,
            None if debits is None else debits >= 0.7 and lost == 0,
            "",
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
            "webhook deliveries vs bare POST, new HTTPS connection each ≥ 0.5 ×",
            new_connection_text,
            _met(new_connection, 0.5),
            "",
        ),
        (
            "webhook deliveries vs bare POST on one kept-alive connection ≥ 0.3 ×",
            kept_alive_text,
            _met(kept_alive, 0.3),
            _short_by(kept_alive, 0.3) + BOUNDS["kept_alive"],
        ),
        (
            "commit → first delivery attempt, p50 < 20 ms",
            first_p50,
            _met(first_p50, 19.99, at_most=True),
            "",
        ),
        ("instant bookings per second (sandbox) ≥ 30", rate, _met(rate, 30), ""),
        (
            "resident memory per gunicorn worker after the bench ≤ 150 MB",
            rss,
            _met(rss, 150, at_most=True),
            "",
        ),
    ]
    lines = [
        "| target (issue 17) | this run | met | if missed: by how much, and what bounds it |",
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


def _short_by(ratio: float | None, target: float) -> str:
    """How much faster the figure must get: "needs 1.25 × this run's rate; "."""
    if not ratio:
        return ""
    return f"needs {target / ratio:.2f} × this run's rate; "


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=REPO / "docs" / "benchmark-report.md")
    args = parser.parse_args()
    results = {
        name: (RESULTS / f"{name}.md").read_text()
        for name, _, _ in SECTIONS
        if (RESULTS / f"{name}.md").exists()
    }
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],  # noqa: S607
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    lines = [
        "# Benchmark report",
        "",
        f"Generated {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by `bin/bench` at commit `{commit}` on "
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"load average before the report {os.getloadavg()[0]:.2f}. Every figure below was "
        "measured in this run, each against its baseline measured in the same run; "
        "reproduce with `bin/bench` (see the README). Figures on a shared or busy machine "
        "move a lot: compare ratios, not absolute numbers.",
        "",
        "## Targets",
        "",
        *targets(results),
        "",
        *issue_17_targets(results),
        "",
    ]
    for name, title, script in SECTIONS:
        lines += [f"## {title} (`{script}`)", ""]
        text = results.get(name)
        lines += [_demote_headings(text).strip() if text else "Not run.", ""]
    args.output.write_text("\n".join(lines))
    print(f"written to {args.output}")
    return 0


def _demote_headings(text: str) -> str:
    return re.sub(r"^(#+) ", lambda m: "#" * (len(m.group(1)) + 2) + " ", text, flags=re.M)


if __name__ == "__main__":
    sys.exit(main())
