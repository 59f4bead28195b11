"""The phone page: ``/`` serves the single-page app, which talks only to the public API.

Its scripts, styles and translations are plain files in ``scorekeeper/static/``
(no build step), served by Flask's static route at ``/static/...``. Nothing
here is under ``/api/v1``.
"""

from __future__ import annotations

from flask import Blueprint, Response, render_template

web = Blueprint("web", __name__, template_folder="templates")


@web.route("/", methods=["GET"])
def index() -> Response:
    """The page; ``static/js/app.js`` starts it, and its views live in ``static/js/views/``."""
    response = Response(render_template("index.html"), mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    return response
