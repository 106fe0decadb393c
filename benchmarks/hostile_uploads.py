"""Hostile photo uploads against a real `companion serve`: the server's peak memory, and what
it still holds afterwards.

    .venv/bin/python -m benchmarks.hostile_uploads [--uploads 32] [--workers 1] [--format heic]

Starts `companion serve` on a free 127.0.0.1 port (a temp instance folder), warms it with one
photo (the reader's model loaded: the yardstick "after one photo"), then sends ``--uploads``
photos at once from as many threads over loopback: each a plain 6000 × 6000 picture of a few
KB (HEIC, PNG or WebP), the decompression-bomb shape a 9 KB file allows. The resident memory
of the server's processes (gunicorn's master and workers, read from /proc) is sampled every
20 ms. Printed: the answers' statuses, peak and after-the-storm RSS in MB, and both as ratios
to the warmed server's RSS in the same run. Goal (issue 27): 32 uploads peak under 1 GB,
and after them the server back near its warmed size.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from pathlib import Path

from tests.serving import server_environment, serving

SIDE = 6000


def hostile_photo(kind: str = "heic") -> bytes:
    """A plain SIDE × SIDE picture: a few KB that decode to 108 MB of pixels."""
    from PIL import Image
    from pillow_heif import register_heif_opener

    register_heif_opener()
    out = io.BytesIO()
    picture = Image.new("RGB", (SIDE, SIDE), (200, 200, 190))
    picture.save(out, format={"heic": "HEIF", "png": "PNG", "webp": "WEBP"}[kind], quality=50)
    return out.getvalue()


def tree_rss_mb(root: int) -> float:
    """Resident memory of ``root`` and every process below it, in MB."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def post_photo(url: str, photo: bytes, name: str) -> int:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; "
            f"filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n").encode() \
        + photo + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(url + "/api/v1/photo", data=body, method="POST", headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}"})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def storm(url: str, pid: int, photo: bytes, uploads: int, name: str
          ) -> tuple[Counter[int], float, float]:
    """Send ``uploads`` photos at once; (statuses, peak RSS, RSS once all have answered)."""
    statuses: Counter[int] = Counter()
    lock = threading.Lock()
    start = threading.Barrier(uploads + 1)

    def one() -> None:
        start.wait()
        status = post_photo(url, photo, name)
        with lock:
            statuses[status] += 1

    threads = [threading.Thread(target=one) for _ in range(uploads)]
    for thread in threads:
        thread.start()
    peak = tree_rss_mb(pid)
    start.wait()
    while any(thread.is_alive() for thread in threads):
        peak = max(peak, tree_rss_mb(pid))
        time.sleep(0.02)
    time.sleep(0.5)
    return statuses, peak, tree_rss_mb(pid)


def measure(uploads: int, workers: int, kind: str, folder: Path,
            extra: dict[str, str] | None = None) -> dict[str, object]:
    photo = hostile_photo(kind)
    environment = server_environment(COMPANION_INSTANCE=str(folder / "instance"),
                                     SECRET_KEY="benchmark", **(extra or {}))
    command = [sys.executable, "-m", "companion", "serve", "--threads", "16",
               "--workers", str(workers)]
    with serving(command, environment=environment, log=folder / "server.log",
                 cwd=folder) as server:
        pid = server.process.pid
        started = tree_rss_mb(pid)
        warm_status = post_photo(server.url, photo, f"warm.{kind}")
        time.sleep(0.5)
        warmed = tree_rss_mb(pid)
        statuses, peak, after = storm(server.url, pid, photo, uploads, f"bomb.{kind}")
    return {"format": kind, "bytes": len(photo), "uploads": uploads, "workers": workers,
            "warm_status": warm_status, "statuses": dict(sorted(statuses.items())),
            "started_mb": round(started), "warmed_mb": round(warmed), "peak_mb": round(peak),
            "after_mb": round(after), "peak_ratio": round(peak / warmed, 2),
            "after_ratio": round(after / warmed, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=32)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--format", choices=("heic", "png", "webp"), default="heic")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        found = measure(arguments.uploads, arguments.workers, arguments.format, Path(folder))
    for name, value in found.items():
        print(f"{name:>12}: {value}")


if __name__ == "__main__":
    main()
