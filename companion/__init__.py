"""Companion: score keeper and table referee for Rummikub played with real tiles.

Importing this package pulls in nothing heavy: the rules live in ``companion.core``
(standard library only), the photo reader in ``companion.vision`` and the web app in
``companion.web``.
"""

__version__ = "0.1.0"
