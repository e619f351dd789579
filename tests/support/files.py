"""The project's own files, for the tests that read the code: walked without entering the folders
whose names start with a dot (.venv alone holds tens of thousands of files)."""
import os
from pathlib import Path


def python_files(root):
    """Every .py file below `root` outside dot folders, sorted, as paths relative to `root`."""
    root = Path(root)
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += [Path(folder, f).relative_to(root) for f in files if f.endswith(".py") and not f.startswith(".")]
    return sorted(found)
