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


def main() -> int:
    package_dir = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-dir"
    ]
    shutil.rmtree(STAGE, ignore_errors=True)
    for package, folder in sorted(package_dir.items()):
        target = STAGE.joinpath(*package.split("."))
        target.mkdir(parents=True, exist_ok=True)
        for source in (ROOT / folder).glob("*.py"):
            (target / source.name).symlink_to(source)
        if (ROOT / folder / "py.typed").exists():
            (target / "py.typed").symlink_to(ROOT / folder / "py.typed")
    command = [sys.executable, "-m", "mypy", "--strict", "-p", "knapsack_audit"]
    return subprocess.run(command, cwd=STAGE, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
