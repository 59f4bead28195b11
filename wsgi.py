"""The WSGI entry point for gunicorn: ``gunicorn wsgi:app``.

Behind a reverse proxy, set ``SCOREKEEPER_TRUSTED_PROXIES`` to the number of
proxies in front of the app (usually 1): the client address, scheme and host
are then read from the ``X-Forwarded-*`` headers those proxies add (werkzeug's
``ProxyFix``), so that rate limits count per client and not per proxy. Leave it
unset when clients reach gunicorn directly, or anyone could forge their address.

A request's body has ``deadlines.BODY_SECONDS`` to arrive (``BodyDeadline``).
"""

from __future__ import annotations

from werkzeug.middleware.proxy_fix import ProxyFix

from scorekeeper.app import create_app
from scorekeeper.deadlines import BodyDeadline

app = create_app()
app.wsgi_app = BodyDeadline(app.wsgi_app)  # type: ignore[method-assign]
if trusted := int(app.config.get("TRUSTED_PROXIES") or 0):
    app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
        app.wsgi_app, x_for=trusted, x_proto=trusted, x_host=trusted, x_port=trusted
    )
