"""The built wheel, installed in a fresh virtual environment, serves every page.

Offline and quick: the wheel is built without build isolation from a copy of the sources, and
the fresh environment sees this environment's installed libraries (Flask, hypercorn, ...) through
a path file instead of downloading them again; companion itself comes only from the wheel.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

import companion
from companion.web import PROJECT_ROOT, create_app
from tests.every_page import HttpBrowser, visit_every_page
from tests.serving import server_environment, serving

SOURCES = ("companion", "templates", "static", "migrations", "pyproject.toml", "setup.py",
           "README.md")


def run(*command: str | Path, cwd: Path) -> str:
    done = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        if (PROJECT_ROOT / name).is_dir():
            shutil.copytree(PROJECT_ROOT / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(PROJECT_ROOT / name, source / name)
    dist = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
        "--wheel-dir", dist, source, cwd=source)
    (built,) = dist.glob("companion-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    venv = tmp_path_factory.mktemp("venv")
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=venv)
    python = venv / "bin" / "python"
    site_packages = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()"
                                           "['purelib'])", cwd=venv).strip())
    # Plain directory lines: this environment's libraries, after the venv's own, without running
    # its path hooks (the editable install of the checkout must not shadow the wheel).
    outer = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    (site_packages / "outer_libraries.pth").write_text("\n".join(outer) + "\n")
    run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index",
        wheel, cwd=venv)
    return venv


def test_the_wheel_holds_the_templates_static_files_and_migrations(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("templates", "static", "migrations"):
        shipped = {p.relative_to(PROJECT_ROOT).as_posix() for p in
                   (PROJECT_ROOT / folder).rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts}
        assert shipped and {f"companion/{name}" for name in shipped} <= names, folder
    assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]
    for language in ("de", "nl", "fr", "es", "he"):  # the pages' catalogues, compiled
        assert f"companion/translations/{language}/LC_MESSAGES/messages.mo" in names, language
    assert wheel.name.startswith(f"companion-{companion.__version__}-")
    metadata = zipfile.ZipFile(wheel).read(
        f"companion-{companion.__version__}.dist-info/METADATA").decode()
    for requirement in ("click", "hypercorn", "Flask"):
        assert f"Requires-Dist: {requirement}" in metadata


def test_the_installed_wheel_serves_every_page(tmp_path: Path, venv: Path) -> None:
    python, command = venv / "bin" / "python", venv / "bin" / "companion"
    where = run(python, "-c", "import companion.web as web; print(web.__file__, "
                              "web.shipped_folder('templates'))", cwd=tmp_path).split()
    assert all(Path(path).is_relative_to(venv) for path in where), where
    assert run(command, "--version", cwd=tmp_path).strip().endswith(companion.__version__)

    url_map_app = create_app({"SECRET_KEY": "x",
                              "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite'}"})
    with serving([str(command), "serve", "--threads", "4"], environment=server_environment(),
                 log=tmp_path / "server.log", cwd=tmp_path) as server:
        browser = HttpBrowser(server.url)
        answers = visit_every_page(browser, url_map_app)
        assert browser.get("/static/style.css").status == 200
    assert len(answers) >= 15
    assert "TemplateNotFound" not in server.log_text()
    # Installed, the instance folder is Flask's one for a package: <venv>/var/...
    assert list((venv / "var").glob("*-instance/companion.sqlite"))
