"""deploy/: the systemd units agree with the environment template and pass `systemd-analyze verify`;
the Dockerfile is checked statically (no container runtime works on these machines)."""
import gettext
import os
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.server import ROOT

DEPLOY = ROOT / "deploy"
UNITS = {"web": "serve", "scraper": "runscraper"}


def env_template():
    values = {}
    for line in (DEPLOY / "mangacircus.env").read_text().splitlines():
        match = re.fullmatch(r"([A-Z_]+)=(.*)", line)
        if match:
            values[match[1]] = match[2]
    return values


def unit(name):
    entries = {}
    for line in (DEPLOY / f"mangacircus-{name}.service").read_text().splitlines():
        match = re.fullmatch(r"(\w+)=(.*)", line)
        if match:
            entries.setdefault(match[1], []).append(match[2])
    return {key: " ".join(values) for key, values in entries.items()}


def test_the_units_read_the_template_and_open_exactly_its_folders():
    env = env_template()
    install_path = re.search(r"Copy to (\S+) ", (DEPLOY / "mangacircus.env").read_text())[1]
    web, scraper = unit("web"), unit("scraper")
    for u in (web, scraper):
        assert u["EnvironmentFile"] == install_path == "/etc/mangacircus/mangacircus.env"
        assert u["User"] == "mangacircus" and u["NoNewPrivileges"] == "yes" and u["ProtectSystem"] == "strict"
        assert u["Restart"] == "always" and u["StartLimitIntervalSec"] == "600" and u["StartLimitBurst"] == "6"
    assert set(web["ReadWritePaths"].split()) == {env["DATA"], env["BACKUP"]}
    assert web["ReadOnlyPaths"] == env["LIBRARY"]
    assert set(scraper["ReadWritePaths"].split()) == {env["DATA"], env["LIBRARY"]}
    assert web["ExecStart"].endswith("manage.py serve") and scraper["ExecStart"].endswith("manage.py runscraper")
    assert int(scraper["TimeoutStopSec"]) > 120  # longer than one page (SCRAPER_PAGE_DEADLINE)
    assert "SCRAPER_TOKEN" in env and env["SCRAPER_URL"].startswith("http://127.0.0.1:")


@pytest.mark.process
@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not installed")
def test_the_units_pass_systemd_analyze_verify(tmp_path):
    """The units as installed, with /opt/mangacircus and /etc/mangacircus pointing at this checkout."""
    for name in UNITS:
        text = (DEPLOY / f"mangacircus-{name}.service").read_text()
        text = text.replace("/opt/mangacircus/.venv/bin/python", sys.executable)
        text = text.replace("/etc/mangacircus/mangacircus.env", str(DEPLOY / "mangacircus.env"))
        text = text.replace("/opt/mangacircus", str(ROOT))
        (tmp_path / f"mangacircus-{name}.service").write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", *sorted(map(str, tmp_path.iterdir()))],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


def dockerfile():
    return (DEPLOY / "Dockerfile").read_text()


def test_the_dockerfile_copies_what_exists_runs_as_uid_1000_and_starts_startall():
    text = dockerfile()
    ignored = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    copies = re.findall(r"^COPY (\S+) (\S+)$", text, re.M)
    assert copies
    for source, _ in copies:
        assert (ROOT / source).exists(), f"COPY {source}: no such path in the build context"
        assert source.rstrip("/") not in ignored, f"COPY {source}: excluded by .dockerignore"
    # Everything the app imports or renders at run time is copied.
    packages = {p.parent.name for p in ROOT.glob("*/apps.py")} | {"mangacircus", "templates", "static", "locale"}
    assert packages <= {Path(source).name for source, _ in copies}
    assert re.search(r"useradd --uid 1000 ", text) and re.search(r"^USER 1000$", text, re.M)
    env = dict(re.findall(r"(\w+)=(\S+)", re.search(r"^ENV (.*)$", text, re.M)[1]))
    assert (env["LIBRARY"], env["DATA"], env["BACKUP"]) == ("/library", "/data", "/backup")
    assert re.search(r"chown 1000:1000 /data /backup", text)
    # tests/ops/test_startall.py runs this command.
    assert re.search(r'^CMD \["python", "manage.py", "startall"\]$', text, re.M)


@pytest.mark.process
def test_the_dockerfile_compiles_every_catalog_of_the_ui(tmp_path):
    """Its loop over locale/ (the image's only step that makes files), run here on a copy."""
    loop = re.search(r"(for po in locale/.*?; done)", dockerfile())[1]
    shutil.copytree(ROOT / "locale", tmp_path / "locale", ignore=shutil.ignore_patterns("*.mo"))
    done = subprocess.run(["bash", "-c", loop], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    catalogs = sorted((tmp_path / "locale").glob("*/LC_MESSAGES/*.po"))
    assert len(catalogs) >= 22  # two domains (django, djangojs) for each language but English
    for po in catalogs:
        with po.with_suffix(".mo").open("rb") as f:
            assert "plural-forms" in gettext.GNUTranslations(f).info(), po


@pytest.mark.process
def test_check_deploy_passes_with_the_production_settings_of_the_docs(tmp_path):
    """docs/deploy.md: `manage.py check --deploy --fail-level WARNING` with the template's settings
    and the reverse-proxy ones."""
    env = {**os.environ, **{k: v for k, v in env_template().items() if v}, "DATA": str(tmp_path),
           "LIBRARY": str(tmp_path), "BACKUP": str(tmp_path / "backup"), "COOKIE_SECURE": "1",
           "TRUSTED_PROXIES": "127.0.0.1", "ALLOWED_HOSTS": "manga.example.org",
           "SECRET_KEY": secrets.token_urlsafe(50)}
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout
