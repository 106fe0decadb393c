"""``python -m companion`` is the ``companion`` command."""

from companion.cli import main

if __name__ == "__main__":  # not when a server worker process is spawned from it
    main()
