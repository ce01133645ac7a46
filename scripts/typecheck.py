"""Run mypy --strict on the package exactly as it is installed.

The import package ``knapsack_audit`` is assembled from three folders
(``knapsack_audit/``, ``reference/``, ``optimized/``) by setuptools'
package-dir mapping. mypy cannot follow setuptools' editable-install import
hook, so this script stages the same layout as symbolic links in
``.typecheck/`` and checks that. Errors are printed with the staged path,
which maps one to one onto the source folders (``knapsack_audit/reference/x.py``
is ``reference/x.py``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent
STAGE = ROOT / ".typecheck"


def source_folder(package: str, package_dir: dict[str, str]) -> Path:
    """The folder setuptools installs ``package`` from (nearest mapped parent)."""
    parts = package.split(".")
    for cut in range(len(parts), 0, -1):
        parent = ".".join(parts[:cut])
        if parent in package_dir:
            return ROOT / package_dir[parent] / Path(*parts[cut:])
    return ROOT / Path(*parts)


def main() -> int:
    setuptools_config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    package_dir = setuptools_config["package-dir"]
    shutil.rmtree(STAGE, ignore_errors=True)
    for package in setuptools_config["packages"]:
        folder = source_folder(package, package_dir)
        target = STAGE.joinpath(*package.split("."))
        target.mkdir(parents=True, exist_ok=True)
        for source in [*folder.glob("*.py"), *folder.glob("py.typed")]:
            (target / source.name).symlink_to(source)
    command = [sys.executable, "-m", "mypy", "--strict", "-p", "knapsack_audit"]
    return subprocess.run(command, cwd=STAGE, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
