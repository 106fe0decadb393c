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


def test_importing_the_photo_reader_pulls_in_no_web_framework_or_database() -> None:
    script = (
        "import importlib, pkgutil, sys, companion.vision\n"
        "for module in pkgutil.iter_modules(companion.vision.__path__):\n"
        "    importlib.import_module('companion.vision.' + module.name)\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('flask', 'sqlalchemy', 'werkzeug', 'training') or m.startswith('companion.web'))\n"
        "print(','.join(heavy))"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == ""


def _imported_roots(package: str) -> dict[str, set[str]]:
    """For each module file of ``package``: the modules it imports (by their full name)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    found: dict[str, set[str]] = {}
    for path in (root / package.replace(".", "/")).rglob("*.py"):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
        found[str(path.relative_to(root))] = names
    return found


def test_arrows_point_inward_web_to_vision_to_core_and_nothing_else() -> None:
    """Every import of each layer, read from its source (lazy imports inside functions too)."""
    for path, names in _imported_roots("companion.web").items():
        assert not {n for n in names if n.split(".")[0] in ("cv2", "numpy", "training")}, path
    for path, names in _imported_roots("companion.vision").items():
        wrong = {n for n in names if n.split(".")[0] in ("flask", "sqlalchemy", "werkzeug",
                                                         "training", "flask_wtf", "wtforms")
                 or n.startswith("companion.web") or n == "companion.cli"}
        assert not wrong, (path, wrong)
    for path, names in _imported_roots("companion.core").items():
        wrong = {n for n in names if n.split(".")[0] in ("cv2", "numpy", "flask", "sqlalchemy")
                 or n.startswith(("companion.web", "companion.vision"))}
        assert not wrong, (path, wrong)
