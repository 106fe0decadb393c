"""Database models (SQLAlchemy 2.0 typed). The score-keeping feature owns the tables."""

from companion.web.extensions import db

__all__ = ["db"]
