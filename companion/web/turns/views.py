"""Pages of the turns feature."""

from flask import Blueprint

bp = Blueprint("turns", __name__)
