"""The packages of the wheel, found rather than listed: every package under engine/, store/,
cli/ and web/ becomes `warscribe.<its path>` (the checkout's top-level folders are the packages
of the `warscribe` namespace), so a package added there is shipped without an edit here
(tests/test_packaging.py builds the wheel and checks it holds every package and data file).
pyproject.toml's `[tool.setuptools]` cannot prefix what `packages.find` finds, hence this file.
"""

from setuptools import find_packages, setup

TOP = ("engine", "store", "cli", "web")

setup(
    packages=[f"warscribe.{name}" for name in find_packages(include=[f"{top}*" for top in TOP])],
    package_dir={f"warscribe.{top}": top for top in TOP},
)
