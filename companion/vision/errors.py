"""The one exception of the photo reader: bad input, with a message meant for the user."""


class PhotoError(ValueError):
    """The photo cannot be read; ``str(error)`` says why in words a player understands."""
