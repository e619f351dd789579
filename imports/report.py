"""The plan and the result in words, for `manage.py import` (the screen shows the same lists)."""

HEADINGS = (("matched", "Matched"), ("created", "Created"), ("not_found", "Not found"),
            ("not_imported", "Not imported"))


def plan(p, dry=True):
    c = p["counts"]
    lines = [f"Import from {p['source']} ({p['file']})" + (": dry run, nothing was changed." if dry else ":"),
             f"  {c['matched']} matched, {c['created']} created, {c['unchanged']} already so here, "
             f"{c['not_found']} not found, {c['not_imported']} not imported."]
    for key, heading in HEADINGS:
        items = p[key]
        if not items:
            continue
        lines.append(f"{heading} ({c[key]}):")
        for item in items:
            target = f" → {item['target']}" if item["target"] else ""
            lines.append(f"  {item['what']}{target}: {item['reason']}")
        if c[key] > len(items):
            lines.append(f"  … and {c[key] - len(items)} more")
    if dry:
        lines.append("Nothing to import: everything is already here." if not p["changes"]
                     else f"Run again with --apply to make these {p['changes']} change(s), after a backup.")
    return "\n".join(lines)


def applied(result):
    lines = [plan(result["plan"], dry=False)]
    if result["backup"] is None:
        lines.append("Nothing was changed: everything is already here.")
        return "\n".join(lines)
    lines.append(f"Backed up first to {result['backup']}.")
    lines.append(f"Imported: {len(result['accounts'])} new account(s), {result['written']} position(s), "
                 f"{result['overrides']} metadata override(s), {result['collections']} collection(s), "
                 f"{result['readlists']} read list(s), "
                 f"{result['ratings']} rating(s), {result['wants']} want-to-read.")
    for account in result["accounts"]:
        lines.append(f"  account {account['name']} (from {account['label']}): one-time password "
                     f"{account['password']} (shown only now; they change it in Settings → Profile)")
    return "\n".join(lines)
