"""Packaging that pyproject.toml cannot say: the pages' folders ship inside the package.

templates/, static/ and migrations/ stay at the top of the repository, where a Flask project
keeps them; in the wheel they become companion/templates, companion/static and
companion/migrations, which ``create_app`` finds when it does not run from a checkout.
pyproject.toml cannot map several folders into one package with globs, hence this file; it is
read by the build backend (pip, `python -m build`), never run as `python setup.py`.

Every folder that ships files is listed as a (namespace) package, the data folders' subfolders
too (templates/scores, companion/translations/de/LC_MESSAGES, ...): setuptools warns, in some
forty lines per folder, about each folder it would have to guess.
"""

from setuptools import find_namespace_packages, setup

SHIPPED_FOLDERS = ("templates", "static", "migrations")
NOT_SHIPPED = ["**/__pycache__/*", "**/*.pyc", "__pycache__/*", "*.pyc"]
NOT_PACKAGES = ["*__pycache__*", "*.egg-info*"]


def subfolders(folder: str) -> list[str]:
    """companion.<folder> and each folder below it, as the package names the wheel will have."""
    return [f"companion.{folder}",
            *(f"companion.{folder}.{name}"
              for name in find_namespace_packages(where=folder, exclude=NOT_PACKAGES))]


setup(
    packages=[*find_namespace_packages(include=["companion", "companion.*"], exclude=NOT_PACKAGES),
              *(name for folder in SHIPPED_FOLDERS for name in subfolders(folder))],
    package_dir={f"companion.{folder}": folder for folder in SHIPPED_FOLDERS},
    package_data={"companion": ["vision/models/*", "translations/*/LC_MESSAGES/*",
                              "web/openapi.json"],
                  **{f"companion.{folder}": ["**/*"] for folder in SHIPPED_FOLDERS}},
    exclude_package_data={"": NOT_SHIPPED},
)
