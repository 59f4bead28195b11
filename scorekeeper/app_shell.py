"""The app shell a phone keeps for offline use: the files its service worker precaches, and the
version that names their cache.

The version is a hash of every file under ``static/`` and ``templates/`` (the page, the worker
and the manifest are templates) and of the ``RELEASE`` setting, computed once when the app
starts: a deploy that changes any of them changes the bytes of ``/sw.js``, which is how a phone
learns that a new version is ready. No build step writes it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class AppShell:
    """What ``/sw.js`` needs: the version, and the static files as paths under ``static/``."""

    version: str
    static_files: tuple[str, ...]


def shell_files(folder: Path) -> list[Path]:
    """Every file under ``folder`` in a stable order, hidden files and folders left out."""
    found = (path for path in folder.rglob("*") if path.is_file())
    return sorted(
        path
        for path in found
        if not any(part.startswith(".") for part in path.relative_to(folder).parts)
    )


def shell_version(folders: Iterable[Path], release: str = "") -> str:
    """A short hash of ``release`` and of each file's path and bytes under ``folders``."""
    digest = hashlib.sha256(release.encode())
    for folder in folders:
        for path in shell_files(folder):
            digest.update(b"\0" + path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def app_shell(static_folder: Path, template_folder: Path, release: str = "") -> AppShell:
    """The shell as the files under the two folders stand now."""
    files = tuple(path.relative_to(static_folder).as_posix() for path in shell_files(static_folder))
    return AppShell(shell_version([static_folder, template_folder], release), files)
