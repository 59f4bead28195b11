"""The phone page: ``/`` serves the single-page app, which talks only to the public API.

Its scripts, styles and translations are plain files in ``scorekeeper/static/``
(no build step), served by Flask's static route at ``/static/...``. ``/sw.js``
is its service worker (the app shell kept for offline use, ``app_shell.py``) and
``/manifest.webmanifest`` makes it installable. Nothing here is under ``/api/v1``.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, url_for
from flask.blueprints import BlueprintSetupState

from .app_shell import AppShell, app_shell

web = Blueprint("web", __name__, template_folder="templates")

SHELL = "scorekeeper.app_shell"
# What the page loads from static/: the rest (licences, notes) is not precached.
SHELL_SUFFIXES = (".js", ".css", ".json", ".svg", ".png")


@web.record_once
def remember_shell(state: BlueprintSetupState) -> None:
    """Hash the shell once at startup: the version stays what this process serves."""
    app = state.app
    templates = Path(web.root_path) / str(web.template_folder)
    release = str(app.config.get("RELEASE") or "")
    app.extensions[SHELL] = app_shell(Path(str(app.static_folder)), templates, release)


def shell() -> AppShell:
    """The shell this process computed at startup."""
    found: AppShell = current_app.extensions[SHELL]
    return found


def precached_urls() -> list[str]:
    """The URLs the service worker keeps: the page, the manifest, the rulesets, static files."""
    files = [name for name in shell().static_files if name.endswith(SHELL_SUFFIXES)]
    return [
        url_for("web.index"),
        url_for("web.manifest"),
        url_for("api.list_rulesets"),
        *(url_for("static", filename=name) for name in files),
    ]


def uncached(body: str, mimetype: str) -> Response:
    """A response the browser must check with the server before each use."""
    response = Response(body, mimetype=mimetype)
    response.headers["Cache-Control"] = "no-cache"
    return response


@web.route("/", methods=["GET"])
def index() -> Response:
    """The page; ``static/js/app.js`` starts it, and its views live in ``static/js/views/``."""
    return uncached(render_template("index.html"), "text/html")


@web.route("/sw.js", methods=["GET"])
def service_worker() -> Response:
    """The service worker, scope ``/``: its version and precache list are written into it."""
    body = render_template("sw.js", version=shell().version, urls=precached_urls())
    response = uncached(body, "text/javascript")
    # The worker's own policy (a page's does not reach it): it fetches from this origin only.
    response.headers["Content-Security-Policy"] = "default-src 'self'"
    return response


@web.route("/manifest.webmanifest", methods=["GET"])
def manifest() -> Response:
    """The web app manifest: name, icons and colours of the installed page."""
    return uncached(render_template("manifest.webmanifest"), "application/manifest+json")
