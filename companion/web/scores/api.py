"""JSON API of the scores feature, mounted under /api/v1."""

from flask import Blueprint

bp = Blueprint("scores_api", __name__)
