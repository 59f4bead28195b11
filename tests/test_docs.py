"""Every relative link in the repository's Markdown points at something a clone has."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
SKIPPED_FOLDERS = frozenset({".git", ".venv", "node_modules", "test-output"})

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+).+?\1")
INLINE_LINK = re.compile(r"\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+[\"'(][^)]*)?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
ATX_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)\s*$")
HTML_ANCHOR = re.compile(r"<a\s[^>]*(?:name|id)=[\"']([^\"']+)[\"']", re.IGNORECASE)
LINK_IN_HEADING = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def markdown_files(root: Path = ROOT) -> list[Path]:
    """The Markdown files git tracks under ``root``, or all of them outside tool folders."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "*.md"],
            cwd=root,
            capture_output=True,
            check=True,
            text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        found = []
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = [name for name in subfolders if name not in SKIPPED_FOLDERS]
            found += [Path(folder, name) for name in files if name.endswith(".md")]
        return sorted(found)
    return sorted(root / name for name in listed.split("\0") if name)


def prose_lines(text: str, *, blank_code_spans: bool = True) -> list[str]:
    """The lines of ``text`` outside fenced code blocks (blank), code spans blanked unless kept."""
    lines = []
    fence = ""
    for line in text.splitlines():
        opening = FENCE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = ""
            lines.append("")
        elif opening:
            fence = opening.group(1)
            lines.append("")
        elif blank_code_spans:
            lines.append(CODE_SPAN.sub(lambda match: " " * len(match.group(0)), line))
        else:
            lines.append(line)
    return lines


def link_targets(text: str) -> list[str]:
    """The targets of the inline links, images and link definitions in Markdown ``text``."""
    targets = []
    for line in prose_lines(text):
        found = INLINE_LINK.findall(line) + REFERENCE_DEFINITION.findall(line)
        targets += [target.strip("<>") for target in found]
    return targets


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation but - and _ dropped, spaces to -."""
    text = LINK_IN_HEADING.sub(r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor Markdown ``text`` defines: its headings' slugs (numbered when repeated)."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    lines = prose_lines(text, blank_code_spans=False)
    for index, line in enumerate(lines):
        heading = ATX_HEADING.match(line)
        title = heading.group(1) if heading else None
        underline = SETEXT_UNDERLINE.match(lines[index + 1]) if index + 1 < len(lines) else None
        if title is None and underline and line.strip() and not line.lstrip().startswith("|"):
            title = line
        if title is not None:
            base = slug(title)
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        found.update(anchor.lower() for anchor in HTML_ANCHOR.findall(line))
    return found


def has_anchor(path: Path, fragment: str) -> bool:
    """Whether Markdown file ``path`` defines the anchor ``fragment``."""
    return unquote(fragment).lower() in anchors(path.read_text(encoding="utf-8"))


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """The relative links of Markdown file ``path`` that lead nowhere inside ``root``."""
    root = root.resolve()
    text = path.read_text(encoding="utf-8")
    problems = []
    for target in link_targets(text):
        if SCHEME.match(target) or target.startswith("/"):
            continue  # http:, https:, mailto: and other absolute URLs
        location, _, fragment = target.partition("#")
        resolved = (path.parent / unquote(location)).resolve() if location else path.resolve()
        if not resolved.is_relative_to(root):
            problems.append(f"{target}: outside the repository")
        elif not resolved.exists():
            problems.append(f"{target}: no such file or folder")
        elif fragment and resolved.suffix == ".md" and not has_anchor(resolved, fragment):
            problems.append(f"{target}: no heading #{fragment}")
    return problems


@pytest.mark.parametrize(
    "path", markdown_files(), ids=lambda path: path.relative_to(ROOT).as_posix()
)
def test_every_relative_link_resolves(path: Path) -> None:
    """Each tracked Markdown file links only to files, folders and headings in the repository."""
    assert broken_links(path) == []


def write(path: Path, text: str) -> Path:
    """Write ``text`` to ``path``, making its folder; return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_checker_finds_a_link_to_a_missing_file(tmp_path: Path) -> None:
    """A link to a file that does not exist is reported; one that exists is not."""
    write(tmp_path / "docs" / "rules.md", "# Rules\n")
    page = write(tmp_path / "README.md", "[rules](docs/rules.md) and [api](docs/api.md)\n")
    assert broken_links(page, tmp_path) == ["docs/api.md: no such file or folder"]


def test_checker_finds_a_link_that_leaves_the_repository(tmp_path: Path) -> None:
    """A link out of the repository is reported even when the file exists there."""
    write(tmp_path / "shared" / "spec.md", "# Spec\n")
    page = write(tmp_path / "repo" / "README.md", "[spec](../shared/spec.md)\n")
    assert broken_links(page, tmp_path / "repo") == ["../shared/spec.md: outside the repository"]


def test_checker_follows_folders_and_anchors(tmp_path: Path) -> None:
    """Folders, headings in other files and in the same file resolve; a missing heading does not."""
    write(
        tmp_path / "docs" / "api.md",
        "# HTTP API\n\n## Rate limits\n\nRetries\n-------\n\n## Dry runs: `?dry_run=true`\n",
    )
    page = write(
        tmp_path / "README.md",
        "## API decisions\n\n"
        "[docs](docs/) [limits](docs/api.md#rate-limits) [retries](docs/api.md#retries)\n"
        "[dry](docs/api.md#dry-runs-dry_runtrue)\n"
        "[here](#api-decisions) [gone](docs/api.md#errors) [there](#nowhere)\n",
    )
    assert broken_links(page, tmp_path) == [
        "docs/api.md#errors: no heading #errors",
        "#nowhere: no heading #nowhere",
    ]


def test_checker_skips_urls_and_code(tmp_path: Path) -> None:
    """Web and mail addresses, absolute paths and links inside code are not checked."""
    page = write(
        tmp_path / "README.md",
        "[site](https://example.org/x.md) [mail](mailto:a@example.org) [spec](/openapi.yaml)\n"
        "`[inline](missing.md)`\n\n```md\n[fenced](missing.md)\n```\n",
    )
    assert broken_links(page, tmp_path) == []


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("HTTP API", "http-api"),
        ("Create a game: `POST /api/v1/games`", "create-a-game-post-apiv1games"),
        ("Jhyap options", "jhyap-options"),
        ("The option `halve_at`", "the-option-halve_at"),
        ("See [rules](rules.md)", "see-rules"),
    ],
)
def test_slug_follows_github(heading: str, expected: str) -> None:
    """Headings become anchors as GitHub makes them."""
    assert slug(heading) == expected
