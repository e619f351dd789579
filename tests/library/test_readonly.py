"""The reader never writes into LIBRARY: scans, page serving and thumbnails leave it untouched."""
import os
from urllib.parse import quote


def tree(root):
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            st = os.lstat(os.path.join(folder, name))
            found[os.path.relpath(os.path.join(folder, name), root)] = (st.st_size, st.st_mtime_ns, st.st_mode)
    st = os.stat(root)
    found["."] = (st.st_mtime_ns, st.st_mode)
    return found


def test_it_never_writes_into_the_library(server, admin, library_dir):
    before = tree(library_dir)
    assert admin.post("/api/admin/rescan", {"full": True})[0] == 200
    assert admin.post("/api/admin/rescan", {})[0] == 200
    assert admin.get("/lib/" + quote("Moon Garden/b01 Spring/c0001 Seeds/001.png"))[0] == 200
    assert admin.get("/thumb/" + quote("Moon Garden"))[0] == 200
    server.stop()
    assert tree(library_dir) == before
