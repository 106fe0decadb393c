"""How many photos a server process reads at once, and giving their memory back.

A photo's decode and reading take a few hundred MB for a moment (a 6000 × 6000 HEIC of 9 KB
is 108 MB of pixels before the reader shrinks it). Every page, API and sample request that
reads a photo takes one of ``PHOTO_READS_AT_ONCE`` slots of its process first, waiting at most
``PHOTO_WAIT_SECONDS``; when none frees in time the answer is a 503 with ``Retry-After`` (the
page says "busy, try again in a moment"), not one more decode. The upload's bytes are read
from the request only inside the slot. When a read ends, glibc is asked to give its free
memory back to the system (``malloc_trim``), so the peak is not held afterwards; and large
blocks are always mapped on their own (``M_MMAP_THRESHOLD`` fixed at 1 MB), so freeing a
decoded photo returns it at once instead of leaving it in the heap.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from flask import current_app

PHOTO_READS_AT_ONCE = 2
"""Photos read at once by one server process: with the reader loaded (about 170 MB) and two
hostile photos at their peak (under 200 MB each), a process stays near 600 MB."""
PHOTO_WAIT_SECONDS = 4.0
"""How long a photo waits for a slot before the answer is "busy" (a read takes about 1 s)."""
RETRY_AFTER_SECONDS = 5
M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
MMAP_THRESHOLD_BYTES = 1024 * 1024


class PhotosBusy(Exception):
    """Every slot stayed taken for ``PHOTO_WAIT_SECONDS``: try again in a moment."""

    code = "busy"
    retry_after = RETRY_AFTER_SECONDS

    def __init__(self) -> None:
        super().__init__("busy, try again in a moment: the server is reading other photos "
                         f"(retry after {RETRY_AFTER_SECONDS} seconds)")


_slots: dict[int, threading.BoundedSemaphore] = {}
_slots_lock = threading.Lock()


def _semaphore(size: int) -> threading.BoundedSemaphore:
    with _slots_lock:
        if size not in _slots:
            _slots[size] = threading.BoundedSemaphore(size)
        return _slots[size]


@contextmanager
def photo_slot() -> Iterator[None]:
    """Hold one of the process's photo slots for a decode and its reading; PhotosBusy when
    none frees in time. Memory is handed back to the system when the slot is let go."""
    config = current_app.config
    slots = _semaphore(int(config.get("PHOTO_READS_AT_ONCE", PHOTO_READS_AT_ONCE)))
    if not slots.acquire(timeout=float(config.get("PHOTO_WAIT_SECONDS", PHOTO_WAIT_SECONDS))):
        raise PhotosBusy
    try:
        yield
    finally:
        slots.release()
        give_memory_back()


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


_LIBC = _libc()


def give_memory_back() -> None:
    """Return the heap's free pages to the system (glibc only; elsewhere nothing to do)."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def map_large_blocks() -> None:
    """Large blocks mapped on their own whatever the sizes freed before (glibc raises its
    threshold after each large free, up to 32 MB, and then keeps decoded photos in the heap)."""
    if _LIBC is not None and hasattr(_LIBC, "mallopt"):
        _LIBC.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)


map_large_blocks()  # once, when the photo routes are registered
