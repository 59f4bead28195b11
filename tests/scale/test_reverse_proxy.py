"""README "Operations"'s nginx configuration, as written there, in front of the two servers.

nginx is Debian's ``nginx-light`` (``.ci/run`` installs it); without it the test is
skipped, except in CI, where it fails.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from scorekeeper import PROJECT_ROOT
from scorekeeper.testing.games import Game
from scorekeeper.testing.live_server import LiveServer, free_port
from tests.event_stream import EventStream
from tests.scale.conftest import missing

pytestmark = pytest.mark.server

Pair = tuple[LiveServer, LiveServer]
SAMPLE_UPSTREAMS = ("10.0.0.11:8000", "10.0.0.12:8000")


@dataclass
class Proxy:
    """nginx in front of the two servers: its address, and the log of what it could not pass on."""

    url: str
    error_log: Path

    def errors(self) -> str:
        """What nginx logged as errors so far."""
        return self.error_log.read_text(errors="replace") if self.error_log.exists() else ""


def readme_configuration() -> str:
    """The nginx sample of README "Operations"."""
    readme = (PROJECT_ROOT / "README.md").read_text()
    found = re.search(r"```nginx\n(upstream scorekeeper .*?)```", readme, re.DOTALL)
    assert found, "README.md has no nginx sample with an upstream"
    return found.group(1)


@pytest.fixture(scope="module")
def proxy(pair: Pair) -> Iterator[Proxy]:
    """nginx with the README's configuration, the two servers as its upstreams."""
    nginx = shutil.which("nginx") or shutil.which("/usr/sbin/nginx")
    if nginx is None:
        missing("nginx is not installed (Debian: apt-get install nginx-light)")
    assert nginx is not None
    sample = readme_configuration()
    for address in SAMPLE_UPSTREAMS:
        assert address in sample
    port = free_port()
    configured = sample.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port};")
    for address, server in zip(SAMPLE_UPSTREAMS, pair, strict=True):
        configured = configured.replace(address, f"127.0.0.1:{server.port}")
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-nginx-"))
    (folder / "nginx.conf").write_text(
        f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\nevents {{}}\nhttp {{\n"
        f"access_log off;\nclient_body_temp_path {folder}/body;\n"
        f"proxy_temp_path {folder}/proxy;\n{configured}}}\n"
    )
    command = [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen([*command, "-g", "daemon off;"])
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                requests.get(url + "/api/v1/health", timeout=1)
                break
            except requests.ConnectionError:
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)  # the polling interval
        yield Proxy(url, folder / "error.log")
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def test_the_readme_proxy_passes_each_event_on_at_once_from_either_server(
    pair: Pair, proxy: Proxy
) -> None:
    game = Game(proxy)
    streams = [EventStream(f"{proxy.url}/api/v1/games/{game.id}/events") for _ in range(6)]
    try:
        for stream in streams:
            assert stream.headers["content-type"].startswith("text/event-stream")
            assert stream.next_frame().fields == {"retry": "3000"}
            assert stream.next_event().fields["id"] == "1"
        for number in range(1, 5):
            answer = game.post(pair[number % 2], number)
            assert answer.status_code == 201, answer.text
            answered = time.monotonic()
            for stream in streams:  # an event nginx held back would come late, or not at all
                event = stream.next_event(timeout=5)
                assert event.fields["id"] == str(number + 1), proxy.errors()
                assert event.arrived - answered < 1.0, number
        for server in pair:  # the streams were balanced over both servers
            assert f'"path": "/api/v1/games/{game.id}/events"' in server.log_text()
    finally:
        for stream in streams:
            stream.close()


def test_the_readme_proxy_balances_and_passes_rounds_on_when_a_server_is_killed(
    pair: Pair, proxy: Proxy
) -> None:
    game = Game(proxy)
    acknowledged = []
    resent = []
    for number in range(1, 31):
        if number == 16:
            pair[1].kill()
        response = game.post(proxy, number, key=f"proxied-{number}")
        if response.status_code == 502:
            # A POST that reached the killed server before nginx saw it go is answered 502, not
            # passed on (README "Operations"): the phone resends it with the same key.
            resent.append(number)
            response = game.post(proxy, number, key=f"proxied-{number}")
        assert response.status_code == 201, f"round {number}: {response.text}\n{proxy.errors()}"
        acknowledged.append(response.json())
    assert all(number >= 16 for number in resent), proxy.errors()
    health = requests.get(proxy.url + "/api/v1/health", timeout=5)
    assert (health.status_code, health.json()) == (200, {"status": "ok"})
    # Both servers had a share of the game's rounds before the kill.
    for server in pair:
        assert f'"path": "/api/v1/games/{game.id}/rounds"' in server.log_text()
    assert [round_["number"] for round_ in acknowledged] == list(range(1, 31))
    assert pair[0].rounds(game.id) == acknowledged
    pair[1].start()
    assert pair[1].rounds(game.id) == acknowledged
