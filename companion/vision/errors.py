"""The one exception of the photo reader: bad input, with a message meant for the user."""


class PhotoError(ValueError):
    """The photo cannot be read; ``str(error)`` says why in words a player understands (English),
    ``code`` says it without words, for a page in another language."""

    def __init__(self, message: str, code: str = "unreadable") -> None:
        super().__init__(message)
        self.code = code
