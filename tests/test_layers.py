"""Arrows point inward only: the core imports no web framework, database or vision library."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_core_pulls_in_no_flask_sqlalchemy_or_cv2() -> None:
    script = (
        "import importlib, pkgutil, sys, companion.core\n"
        "for module in pkgutil.iter_modules(companion.core.__path__):\n"
        "    importlib.import_module('companion.core.' + module.name)\n"
        "heavy = sorted(m for m in ('flask', 'sqlalchemy', 'cv2', 'numpy', 'werkzeug') "
        "if m in sys.modules)\n"
        "print(','.join(heavy))"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == ""


def test_the_cli_check_command_does_not_import_the_web_layer_or_cv2() -> None:
    script = (
        "import sys\n"
        "from companion.cli import main\n"
        "try:\n    main(['check', 'R5 R6 R7'])\nexcept SystemExit:\n    pass\n"
        "print(','.join(m for m in ('flask', 'cv2') if m in sys.modules), file=sys.stderr)"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=False)
    assert result.stderr.strip() == ""
