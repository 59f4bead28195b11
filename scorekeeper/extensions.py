"""Flask extensions, created unbound and initialised by the app factory."""

from __future__ import annotations

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy

from .models import Base


class AppLimiter(Limiter):
    """Flask-Limiter's ``Limiter``, which takes each app it is bound to as having its store up."""

    def init_app(self, app: Flask) -> None:
        """Bind to ``app`` and its counters' store."""
        # Limiter keeps "the store is down" from the app bound before (several apps in one
        # process, as in the tests), and would count the new app's writes in memory.
        self._storage_dead = False
        super().init_app(app)


# One session per request; what it wrote stays readable after the commit, for the answer.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
limiter = AppLimiter(key_func=get_remote_address)
