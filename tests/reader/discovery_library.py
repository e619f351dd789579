"""A small library for the discovery and Reading Story tests: eight manga with authors and tags."""
import json

from tests.conftest import make_page

SERIES = {
    "Alpha": {"authors": ["Ann Author"], "tags": ["fantasy"]},
    "Beta": {"authors": ["Bo Writer"], "tags": ["mystery"]},
    "Gamma": {"authors": ["Cy Other"], "tags": ["space"]},
    "Delta": {"authors": ["Di Other"], "tags": ["sport"]},
    "Epsilon": {"authors": ["Ann Author"], "tags": ["drama"]},
    "Zeta": {"authors": ["Zed Writer"], "tags": ["fantasy"]},
    "Eta": {"authors": ["Eve Writer"], "tags": ["horror"]},
    "Theta": {"authors": ["Tom Writer"], "tags": ["cooking"]},
}


def discovery_tree(root):
    for name, meta in SERIES.items():
        (root / name).mkdir(parents=True)
        (root / name / "manga.json").write_text(json.dumps(meta))
        for n in (1, 2):
            make_page(root / name / f"c000{n} Part [Official]" / "001.png")
    return root
