"""This browser: one long-lived HttpOnly cookie holding a random device token.

The server keeps only the token's hash, in ``score_access`` rows (one per session the browser
created or joined), so the cookie stays the same size whatever the number of sessions and
holds nothing readable about them.
"""

from __future__ import annotations

import hashlib
import secrets

from flask import Response, current_app, g, request

DEVICE_COOKIE = "companion_device"
DEVICE_COOKIE_DAYS = 400
"""The longest lifetime browsers keep (Chrome caps cookies at 400 days)."""


def device_hash() -> str | None:
    token = g.get("new_device_token") or request.cookies.get(DEVICE_COOKIE, "")
    return hashlib.sha256(token.encode()).hexdigest() if 20 <= len(token) <= 100 else None


def device_hash_to_grant() -> str:
    """This browser's device hash, making a device token (sent with the answer) if it has none."""
    existing = device_hash()
    if existing is not None:
        return existing
    g.new_device_token = secrets.token_urlsafe(32)
    return hashlib.sha256(g.new_device_token.encode()).hexdigest()


def set_device_cookie(response: Response) -> Response:
    token = g.pop("new_device_token", None)
    if token is not None:
        response.set_cookie(DEVICE_COOKIE, token, max_age=DEVICE_COOKIE_DAYS * 86400,
                            httponly=True, samesite="Lax",
                            secure=request.is_secure or
                            bool(current_app.config.get("SESSION_COOKIE_SECURE")))
    return response
