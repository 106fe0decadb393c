"""JSON API of the photos feature, mounted under /api/v1."""

from flask import Blueprint

bp = Blueprint("photos_api", __name__)
