"""Packaging that pyproject.toml cannot say: the pages' folders ship inside the package.

templates/, static/ and migrations/ stay at the top of the repository, where a Flask project
keeps them; in the wheel they become companion/templates, companion/static and
companion/migrations, which ``create_app`` finds when it does not run from a checkout.
"""

from setuptools import find_packages, setup

SHIPPED_FOLDERS = ("templates", "static", "migrations")
NOT_SHIPPED = ["**/__pycache__/*", "**/*.pyc", "__pycache__/*", "*.pyc"]

setup(
    packages=[*find_packages(include=["companion", "companion.*"]),
              *(f"companion.{folder}" for folder in SHIPPED_FOLDERS)],
    package_dir={f"companion.{folder}": folder for folder in SHIPPED_FOLDERS},
    package_data={"companion": ["vision/models/*", "translations/*/LC_MESSAGES/*"],
                  **{f"companion.{folder}": ["**/*"] for folder in SHIPPED_FOLDERS}},
    exclude_package_data={"": NOT_SHIPPED},
)
