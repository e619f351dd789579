"""Scan the libraries (LIBRARY, or each of LIBRARIES in turn) and print their reports: what was
found, what changed since the reader's last snapshot,
and every warning. It reads only: it needs no lock and writes nothing (but the demo library, when
LIBRARY is unset and it is missing), so it runs beside a reader, which picks up changes itself
(shallow check every SCAN_INTERVAL minutes, or "Scan now").
"""
import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from library import demo, libraries, snapshot
from library.index import Index
from library.scan import Scan
from mangacircus.commands import OWN_CHECKS


class Command(BaseCommand):
    help = "Scan the library folder and print what was found, changed and warned about."
    requires_system_checks = OWN_CHECKS

    def add_arguments(self, parser):
        parser.add_argument("--full", action="store_true", help="walk every folder and stat every page")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args, **options):
        made = demo.ensure_default()
        if made:
            self.stderr.write(made)
        if not libraries.all():
            raise CommandError("LIBRARY is not set: set it to the folder that holds your manga")
        failed, taken = [], {}
        for library in libraries.all():
            previous, _last_full, why = snapshot.load(settings.DATA / library.data_file("library-index"),
                                                      library.root, library.direction)
            full = options["full"] or previous is None
            cache = snapshot.load_cache(settings.DATA / library.data_file("scan-cache"), library.root) if full else None
            scan = Scan(library.root, previous or Index(), "full" if full else "shallow", cache=cache,
                        default_direction=library.direction, concurrency=settings.SCAN_CONCURRENCY,
                        allow_empty=True, settle=settings.SCAN_SETTLE, taken=taken)
            index, report = scan.run()
            if index is not None:
                taken.update(dict.fromkeys([*index.manga, *index.hidden], library.name))
            if options["json"]:
                self.stdout.write(json.dumps({"library": library.name, **report}, ensure_ascii=False, indent=1))
            else:
                if previous is None and not options["full"]:
                    self.stdout.write(f"No usable snapshot of {library.root} ({why}): a full scan was run.")
                self.print_report(report, library.root)
            if report["error"]:
                failed.append(report["error"])
        if failed:
            raise CommandError("; ".join(failed))

    def print_report(self, report, root):
        c = report["counts"]
        w = report["work"]
        self.stdout.write(
            f"{report['kind']} scan of {root} in {report['duration']} ms: {c['manga']} manga, "
            f"{c['books']} books, {c['chapters']} chapters, {c['versions']} versions, {c['pages']} pages "
            f"({w['listings']} folders listed, {w.get('archives', 0)} archives opened, {w['stats']} stats, "
            f"{w['headers']} image headers read)"
        )
        for kind, names in report["changed"].items():
            if names:
                self.stdout.write(f"{kind} since the reader's last snapshot: {', '.join(names)}")
        if report["warningCount"]:
            self.stdout.write(f"{report['warningCount']} warning(s):")
            for warning in report["warnings"]:
                self.stdout.write(f"  [{warning['kind']}] {warning['path']}: {warning['message']}")
            if report["warningCount"] > len(report["warnings"]):
                self.stdout.write(f"  … and {report['warningCount'] - len(report['warnings'])} more")
        self.stdout.write("A running reader picks up changes itself: at its next shallow check "
                          f"(every {settings.SCAN_INTERVAL} minutes), or at once with Scan now on its admin screen.")
