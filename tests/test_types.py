"""The rules core is fully typed: it passes mypy --strict."""

from __future__ import annotations

import subprocess
import sys

from companion.web import PROJECT_ROOT


def test_the_core_passes_mypy_strict() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "companion/core"],
        cwd=PROJECT_ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
