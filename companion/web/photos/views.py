"""Pages of the photos feature."""

from flask import Blueprint

bp = Blueprint("photos", __name__)
