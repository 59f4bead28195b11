"""A PostgreSQL cluster of the tests' own, that a test may stop and start (the shared one, never).

``initdb`` into a temporary folder with the binaries under ``/usr/lib/postgresql/*/bin``,
trust authentication, listening on a free loopback port only. PostgreSQL refuses to run as
root, so as root it runs as the ``postgres`` user.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from scorekeeper.testing.live_server import free_port

BINARIES = "/usr/lib/postgresql/*/bin"


def postgres_binaries() -> Path | None:
    """The newest PostgreSQL's folder of binaries on this machine, or ``None``."""
    found = sorted(Path("/").glob(BINARIES.lstrip("/")), key=lambda path: int(path.parent.name))
    return found[-1] if found and (found[-1] / "initdb").exists() else None


class PrivatePostgres:
    """A throwaway cluster: ``initdb`` once, then ``start``, ``stop`` and ``start`` at will."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))
        self.data = self.folder / "data"
        self.log_path = self.folder / "postgres.log"
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self.as_owner: list[str] = []
        if os.geteuid() == 0:
            self.as_owner = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.folder, "postgres")
        self.run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")

    def run(self, program: str, *arguments: str) -> None:
        """Run one of the cluster's programs as its owner; fail with its output."""
        command = [*self.as_owner, str(self.binaries / program), *arguments]
        finished = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if finished.returncode != 0:
            raise RuntimeError(f"{program} failed:\n{finished.stdout}\n{finished.stderr}")

    def start(self) -> None:
        """Start the server and wait until it takes connections."""
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder}"
        self.run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log_path), "-o", options, "-w", "start"
        )

    def stop(self) -> None:
        """A fast shutdown: open sessions are ended, as in a restart of the database server."""
        self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        """Stop the server if it runs, and delete the cluster."""
        if (self.data / "postmaster.pid").exists():
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
