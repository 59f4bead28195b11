"""Flask extensions, created unbound and initialised by the app factory."""

from __future__ import annotations

from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base of every model."""


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
limiter = Limiter(key_func=get_remote_address)
