"""Pinned packages from the npm registry for the tests (axe-core, the OPDS client libraries),
installed into a cache folder under .venv/ on first use, once even when two test runs start at
once; a fresh clone installs them again."""
import fcntl
import json
import shutil
import subprocess


def installed(cache, packages):
    """{name: version} of `packages` that `cache`'s node_modules holds."""
    found = {}
    for name in packages:
        try:
            found[name] = json.loads((cache / "node_modules" / name / "package.json").read_text())["version"]
        except (OSError, ValueError, KeyError):
            pass
    return found


def install(cache, packages, why, *, ignore_scripts=False):
    """`cache`, its node_modules holding `packages` ({name: version}), installed with npm when it
    does not; `why` names what they are for in the errors."""
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if installed(cache, packages) != packages:
            npm = shutil.which("npm")
            if npm is None:
                raise RuntimeError(f"npm is needed to fetch {', '.join(packages)} for {why}: apt-get install npm "
                                   "(scripts/test installs it)")
            done = subprocess.run([npm, "install", "--prefix", str(cache), "--no-save", "--no-audit", "--no-fund",
                                   "--no-package-lock", *(["--ignore-scripts"] if ignore_scripts else []),
                                   *(f"{name}@{version}" for name, version in packages.items())],
                                  capture_output=True, text=True, timeout=300)
            if done.returncode != 0 or installed(cache, packages) != packages:
                raise RuntimeError(f"npm could not install {packages}:\n{done.stdout}\n{done.stderr}")
    return cache
