# Packages are found here rather than in pyproject.toml because the top-level
# templates/ folder ships inside the wheel as the package data of
# ``referee.templates`` (see referee/render.py for how it is located).
from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["referee", "referee.*", "games", "games.*"]) + ["referee.templates"],
    package_dir={"referee.templates": "templates"},
)
