"""The docs stay a reference: every relative link and anchor of the Markdown pages resolves,
no heading names an issue (git keeps the history), and the README's index lists every page."""

import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """Our pages; docs/spec/ is a copy of the shared spec, kept as it is."""
    return [
        ROOT / "README.md",
        ROOT / "bench" / "README.md",
        *(page for page in sorted(DOCS.rglob("*.md")) if "spec" not in page.parts),
    ]


def prose(text: str) -> str:
    """The text outside fenced code blocks."""
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"<[^>]+>|`", "", heading.strip()).lower()
    return "".join(
        "-" if char == " " else char
        for char in text
        if char in "-_ " or unicodedata.category(char)[0] in "LN"
    )


def headings(page: Path) -> list[str]:
    return re.findall(r"^#{1,6} (.+)$", prose(page.read_text()), flags=re.M)


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for heading in headings(page):
        name = slug(heading)
        found.add(f"{name}-{seen[name]}" if name in seen else name)
        seen[name] = seen.get(name, 0) + 1
    return found


def test_every_relative_link_and_anchor_resolves():
    broken = []
    for page in pages():
        for target in re.findall(r"\]\(([^)\s]+)\)", prose(page.read_text())):
            if re.match(r"^[a-z]+:", target):
                continue  # https:, mailto:
            path, _, anchor = target.partition("#")
            destination = (page.parent / path).resolve() if path else page
            unknown_anchor = (
                destination.exists()
                and destination.suffix == ".md"
                and bool(anchor)
                and anchor not in anchors(destination)
            )
            if not destination.exists() or unknown_anchor:
                broken.append(f"{page.relative_to(ROOT)} → {target}")
    assert broken == []


def test_the_slugs_are_githubs():
    assert (
        slug("Panel: roles, audit, lockout, invitations") == "panel-roles-audit-lockout-invitations"
    )
    assert slug("`POST /api/v1/webhooks`: register an endpoint") == (
        "post-apiv1webhooks-register-an-endpoint"
    )
    assert slug("3. Event reference") == "3-event-reference"


def test_no_heading_names_an_issue():
    named = [
        f"{page.relative_to(ROOT)}: {heading}"
        for page in pages()
        for heading in headings(page)
        if re.search(r"\bissues? \d", heading, flags=re.I)
    ]
    assert named == []


def test_the_readme_indexes_every_page_of_the_docs():
    readme = (ROOT / "README.md").read_text()
    missing = [
        page.relative_to(ROOT).as_posix()
        for page in sorted(DOCS.rglob("*.md"))
        if f"]({page.relative_to(ROOT).as_posix()})" not in readme
    ]
    assert missing == []
