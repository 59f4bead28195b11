"""The installable page: ``/sw.js``, its precache and version; the manifest."""

from __future__ import annotations

import json
import re
import shutil
import struct
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import PROJECT_ROOT
from scorekeeper.app_shell import app_shell, shell_version
from tests.conftest import app_on_empty_database

STATIC = PROJECT_ROOT / "scorekeeper" / "static"
TEMPLATES = PROJECT_ROOT / "scorekeeper" / "templates"


def worker_constants(body: str) -> tuple[str, list[str]]:
    """The version and the precached URLs written into the worker's source."""
    version = re.search(r"^const VERSION = (.+);$", body, re.MULTILINE)
    shell = re.search(r"^const SHELL = (.+);$", body, re.MULTILINE)
    assert version and shell, body[:500]
    return json.loads(version.group(1)), json.loads(shell.group(1))


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_worker_is_served_at_the_root_and_checked_before_each_use(
    app: Flask, client: FlaskClient
) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    # At the root, the worker's scope is / without Service-Worker-Allowed.
    assert "Service-Worker-Allowed" not in response.headers
    assert response.headers["Content-Security-Policy"] == "default-src 'self'"
    version, _ = worker_constants(response.get_data(as_text=True))
    assert version == app_shell(STATIC, TEMPLATES).version


def test_every_precached_url_answers(client: FlaskClient) -> None:
    _, urls = worker_constants(client.get("/sw.js").get_data(as_text=True))
    assert urls[:3] == ["/", "/manifest.webmanifest", "/api/v1/rulesets"]
    for must in ("/static/js/app.js", "/static/app.css", "/static/js/install.js"):
        assert must in urls
    for lang in ("en", "fil", "bn", "ne"):
        assert f"/static/i18n/{lang}.json" in urls
    scripts = {f"/static/{path.relative_to(STATIC).as_posix()}" for path in STATIC.rglob("*.js")}
    assert scripts <= set(urls), scripts - set(urls)
    assert not [url for url in urls if url.endswith(("LICENSE", ".md"))]
    assert len(urls) == len(set(urls))
    for url in urls:
        with client.get(url) as response:
            assert response.status_code == 200, url


def test_the_release_setting_changes_the_version(database_url: str) -> None:
    versions = []
    for release in ("", "2026-12-01", "2026-12-01"):
        with app_on_empty_database(database_url, RELEASE=release) as app:
            body = app.test_client().get("/sw.js").get_data(as_text=True)
            versions.append(worker_constants(body)[0])
    assert versions[0] != versions[1]
    assert versions[1] == versions[2]


def test_the_version_changes_when_a_shell_file_changes(tmp_path: Path) -> None:
    static, templates = tmp_path / "static", tmp_path / "templates"
    shutil.copytree(STATIC, static)
    shutil.copytree(TEMPLATES, templates)
    first = shell_version([static, templates])
    assert shell_version([static, templates]) == first
    assert first == app_shell(STATIC, TEMPLATES).version  # the copy is the same shell

    app_js = static / "js" / "app.js"
    app_js.write_text(app_js.read_text() + "\n// changed\n")
    changed = shell_version([static, templates])
    assert changed != first

    (templates / "sw.js").write_text((templates / "sw.js").read_text() + "\n")
    assert shell_version([static, templates]) not in {first, changed}

    (static / "js" / "new.js").write_text("export {};\n")
    grown = shell_version([static, templates])
    assert "js/new.js" in app_shell(static, templates).static_files
    (static / "js" / "new.js").unlink()
    shrunk = shell_version([static, templates])
    assert shrunk != grown
    # A hidden file (an editor's swap file) is not part of the shell.
    (static / ".app.js.swp").write_text("x")
    assert shell_version([static, templates]) == shrunk
    assert ".app.js.swp" not in app_shell(static, templates).static_files


def manifest(client: FlaskClient) -> dict[str, Any]:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    assert response.headers["Cache-Control"] == "no-cache"
    return json.loads(response.get_data(as_text=True))


def test_the_manifest_makes_the_page_installable(client: FlaskClient) -> None:
    found = manifest(client)
    assert found["name"] == "Scorekeeper" and found["short_name"] == "Scorekeeper"
    assert found["start_url"] == "/" and found["scope"] == "/" and found["id"] == "/"
    assert found["display"] == "standalone"
    assert found["theme_color"] == "#14532d"
    assert found["background_color"] == "#f6f5f1"
    declared = {(icon["sizes"], icon["type"], icon["purpose"]) for icon in found["icons"]}
    assert declared == {
        ("192x192", "image/png", "any"),
        ("512x512", "image/png", "any"),
        ("512x512", "image/png", "maskable"),
        ("any", "image/svg+xml", "any"),
    }


def test_every_manifest_icon_is_served_with_its_declared_size(client: FlaskClient) -> None:
    for icon in manifest(client)["icons"]:
        with client.get(icon["src"]) as response:
            assert response.status_code == 200, icon
            assert response.mimetype == icon["type"], icon
            data = response.get_data()
        if icon["type"] == "image/png":
            width, height = (int(n) for n in icon["sizes"].split("x"))
            assert png_size(data) == (width, height), icon
        else:
            assert data.startswith(b"<svg") and b'viewBox="0 0 64 64"' in data


def test_the_page_links_the_manifest_and_its_theme_colours(client: FlaskClient) -> None:
    response = client.get("/")
    html = response.get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert re.search(
        r'<meta name="theme-color" content="#14532d" media="\(prefers-color-scheme: light\)">', html
    )
    assert re.search(
        r'<meta name="theme-color" content="#4ade80" media="\(prefers-color-scheme: dark\)">', html
    )
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', html)
    assert touch
    with client.get(touch.group(1)) as icon:
        assert png_size(icon.get_data()) == (180, 180)
    csp = response.headers["Content-Security-Policy"]
    assert "worker-src 'self'" in csp and "manifest-src 'self'" in csp
    assert "script-src 'self';" in csp and "unsafe" not in csp


@pytest.mark.parametrize("path", ["/sw.js", "/manifest.webmanifest"])
def test_the_worker_and_manifest_carry_the_safe_headers(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
