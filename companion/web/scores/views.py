"""Pages of the scores feature."""

from flask import Blueprint

bp = Blueprint("scores", __name__)
