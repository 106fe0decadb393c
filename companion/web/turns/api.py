"""JSON API of the turns feature, mounted under /api/v1."""

from flask import Blueprint

bp = Blueprint("turns_api", __name__)
