"""What each job kind does (docs/scraper.md). The daemon runs one job at a time through `run(d, job)`.

- add: read the series from its source, subscribe it (series list, manga folder name, language,
  auto), write the manga folder with manga.json and the cover, then queue the chapters not yet in
  the library (those the source cannot give, external or unavailable, are skipped with a warning).
- update: queue the chapters of a subscribed series not yet in the library.
- chapters: download each scoped chapter into staging and publish it when complete.
- discover: queue an update for every subscribed series with auto on.

Every step is idempotent: a chapter already published by that source (its chapter.json names
the source and id, or the same volume, number and group) is skipped, so running a job twice, or
after a crash, publishes nothing twice. Chapters with a volume go into a `Vol. N` book folder.
"""
import dataclasses
import hashlib
import logging
import time
from concurrent.futures import ThreadPoolExecutor

from . import names, queue, sources
from .errors import (
    BadImage,
    Cancelled,
    Interrupted,
    Mismatch,
    NoPages,
    NotFound,
    Refused,
    ScraperError,
    Stalled,
    Transient,
)
from .images import verify
from .sources.base import ChapterInfo, PageInfo

log = logging.getLogger(__name__)
PAGE_BEAT_SECONDS = 1.0  # status.json after a page at most this often: it is a liveness signal, each write an fsync
CHECKPOINT_PAGES = 25  # a chapter staged without per-page fsyncs is checkpointed every this many pages
_HTML_TYPES = ("text/html", "application/xhtml+xml", "image/svg+xml", "text/plain", "application/json")


def run(d, job):
    {"add": run_add, "update": run_update, "chapters": run_chapters, "discover": run_discover}[job["kind"]](d, job)


def run_add(d, job):
    source = sources.get(job["source"])
    entry = subscribe(d, source, job["series"], job["scope"].get("lang"), job["scope"].get("auto"))
    write_manga(d, source, entry)
    queue_new_chapters(d, source, queue.find_series(d.queue, source.key, job["series"]))


def run_update(d, job):
    source = sources.get(job["source"])
    entry = queue.find_series(d.queue, source.key, job["series"])
    if entry is None:
        raise NotFound(f"{source.name} series {job['series']} is not subscribed: add it first")
    queue_new_chapters(d, source, entry)


def run_discover(d, job):
    for source_key, series_id in queue.auto_series(d.queue):
        queue.add_job(d.queue, "update", source_key, series_id)


def subscribe(d, source, series_id, lang, auto=None):
    entry = queue.find_series(d.queue, source.key, series_id)
    lang = lang or (entry or {}).get("lang") or source.languages[0]
    info = source.series(d.transport(source), series_id, lang=lang)
    d.progress.touch()
    manga = entry["manga"] if entry else d.library.manga_folder(source.folder_title(info))
    return queue.upsert_series(d.queue, source.key, series_id, manga, lang, _compact(info), auto)


def write_manga(d, source, entry):
    """manga.json and the cover, at once: the manga is in the library before its first chapter."""
    cover = None
    url = (entry.get("info") or {}).get("cover_url")
    if url:
        try:
            data, _type = d.transport(source).fetch_page(PageInfo(url=url))
            cover = (data, verify(data)[0])
        except ScraperError as e:
            if isinstance(e, (Interrupted, Stalled, Cancelled)):
                raise
            d.warn(f"no cover for {entry['manga']}: {e.message}")
        d.progress.touch()
    d.library.write_manga(entry["manga"], source.manga_meta(entry, _manga_json(source, entry)), cover)


SAME_CHAPTER = "the same volume, number and group as a chapter already in the library"


def _already_here(chapter, keys):
    """A chapter this source already published under another id: same volume, number and group.
    Oneshots (no number) and uploads with no group name (MangaDex leaves out names it does not
    expand) are only ever matched by their id: two of them are two versions, not one chapter."""
    if chapter.number is None or not chapter.group:
        return False
    return (names.chapter_key(chapter.volume), names.chapter_key(chapter.number), chapter.group) in keys


def queue_new_chapters(d, source, entry):
    listed = source.chapters(d.transport(source), entry["id"], entry["lang"])
    d.progress.touch()
    published = d.library.published(entry["manga"], source.key)
    keys = d.library.published_keys(entry["manga"], source.key)
    new, seen, skipped = [], set(), {}
    for chapter in listed:
        if chapter.skip:
            skipped[chapter.id] = chapter.skip
        elif chapter.id in published or chapter.id in seen:
            continue
        elif _already_here(chapter, keys):  # the same upload under a new id: never silently
            skipped[chapter.id] = SAME_CHAPTER
        else:
            seen.add(chapter.id)
            new.append(chapter)
    said = queue.series_skipped(d.queue, entry, skipped)  # warned once, until the source says otherwise
    for chapter in listed:
        if chapter.id in skipped and chapter.id not in said:
            said.add(chapter.id)
            d.warn(f"{entry['manga']}: chapter {chapter.number or 'oneshot'} ({chapter.group or source.name}) "
                   f"skipped: {skipped[chapter.id]} (upload {chapter.id})")
    if new:
        queue.add_job(d.queue, "chapters", source.key, entry["id"], [c.id for c in new],
                      {c.id: dataclasses.asdict(c) for c in new})
    queue.series_checked(d.queue, entry)
    return new


def run_chapters(d, job):
    source = sources.get(job["source"])
    # Chapters of a series nobody follows: its manga folder and title, but no nightly updates (an
    # admin who wants them follows the series: docs/scraper.md, "Jobs and their states").
    entry = queue.find_series(d.queue, source.key, job["series"]) or subscribe(d, source, job["series"], None,
                                                                              auto=False)
    published = d.library.published(entry["manga"], source.key)
    while True:
        pending = queue.pending_chapters(d.queue, job)
        if not pending:
            return
        chapter_id = pending[0]
        d.boundary(job)
        if chapter_id in published:
            if (job["checkpoint"] or {}).get("chapter") == chapter_id:
                # Renamed into place but the crash came before the revision was saved.
                queue.record_publication(d.queue, job, entry["manga"], chapter_id, published[chapter_id])
            else:
                queue.chapter_done(d.queue, job, chapter_id)
            continue
        info = queue.chapter_info(d.queue, job, chapter_id)
        if info is None:
            _fill_chapter_info(d, source, entry, job)
            continue
        chapter = ChapterInfo(**info)
        if chapter.skip:  # queued by id through the API, but the source cannot give it
            d.warn(f"{entry['manga']}: chapter {chapter.number or 'oneshot'} skipped: {chapter.skip}")
            queue.chapter_done(d.queue, job, chapter_id)
            continue
        if _already_here(chapter, d.library.published_keys(entry["manga"], source.key)):
            d.warn(f"{entry['manga']}: chapter {chapter.number} ({chapter.group}) skipped: {SAME_CHAPTER} "
                   f"(upload {chapter.id})")
            queue.chapter_done(d.queue, job, chapter_id)
            continue
        try:
            folder = download_chapter(d, job, source, entry, chapter)
        except CHAPTER_ERRORS as e:
            # This chapter's own trouble (no pages, a bad image, a refused file): the others go on.
            if queue.chapter_failed(d.queue, job, chapter_id, e.message, e.retry):
                d.warn(f"{entry['manga']}: chapter {chapter.number or 'oneshot'} failed: {e.message}")
            continue
        if folder:
            published[chapter_id] = folder


# Errors of one chapter, not of the source or of the run (Transient: the network or the site; the
# daemon's own Parked, Stalled, Interrupted and Cancelled): these fail the chapter, not the job.
CHAPTER_ERRORS = (NoPages, BadImage, Mismatch, Refused, NotFound)


def _fill_chapter_info(d, source, entry, job):
    """Chapters queued by id only (through the API) get their descriptors from the source."""
    missing = queue.chapters_without_info(d.queue, job)
    if not missing:
        return
    listed = {c.id: c for c in source.chapters(d.transport(source), entry["id"], entry["lang"])}
    d.progress.touch()
    dropped = [c for c in missing if c not in listed]
    queue.fill_chapter_info(d.queue, job, {c: dataclasses.asdict(listed[c]) for c in missing if c in listed}, dropped)
    for chapter_id in dropped:
        d.warn(f"{source.name} has no chapter {chapter_id}; dropped from the job")


def download_chapter(d, job, source, entry, chapter):
    """Fetch the missing pages into staging (checkpoint after each), then publish; -> folder name, or
    None when the source no longer has the chapter (skipped with a warning).

    When every page is announced with its size and SHA-256 (a peer's), the pages are not fsynced one
    by one but all at once before publication, and the checkpoint is every CHECKPOINT_PAGES pages: a
    resume keeps only the staged pages that still have the announced bytes."""
    transport = d.transport(source)
    d.library.check_space()
    staging_name = names.staging_name(job["id"], chapter.id)
    try:
        pages = source.pages(transport, chapter.id)
    except NotFound as e:  # deleted at the source since it was listed: the other chapters go on
        d.warn(f"{entry['manga']}: chapter {chapter.number or 'oneshot'} is gone from {source.name} ({e.message})")
        queue.chapter_done(d.queue, job, chapter.id)
        return None
    staging = d.library.staging_dir(staging_name)
    d.progress.touch()
    if not pages:
        raise NoPages(f"{source.name} lists no pages for chapter {chapter.number or chapter.id}")
    stored = d.library.stored_pages(staging, [p.name for p in pages if p.name])
    announced = all(p.size is not None and p.sha256 and p.expires is None for p in pages)
    if announced:
        d.library.drop_unsound(staging, stored, [(p.size, p.sha256) for p in pages])
    d.set_progress(chapter=chapter.id, number=chapter.number, page=len(stored), pages=len(pages))
    if announced:
        _stage_announced(d, job, source, transport, chapter, pages, staging, stored)
        d.check_cancelled(job)
        d.library.sync_pages(staging)
    else:
        _stage_pages(d, job, source, transport, chapter, pages, staging, stored)
        d.check_cancelled(job)
    queue.checkpoint(d.queue, job, chapter.id, len(stored), f".staging/{staging_name}")
    folder = d.library.publish_chapter(
        staging, entry["manga"], source.folder(chapter),
        source.chapter_meta(chapter, _chapter_json(source, chapter)),
        source.manga_meta(entry, _manga_json(source, entry)), book=source.book(chapter),
    )
    rev = queue.record_publication(d.queue, job, entry["manga"], chapter.id, folder)
    d.progress.touch()
    d.heartbeat()
    log.info("published %s / %s (revision %d)", entry["manga"], folder, rev)
    return folder


def _stage_pages(d, job, source, transport, chapter, pages, staging, stored):
    """Fetch, verify and store each missing page with its fsync, checkpointing after each."""
    for index in range(len(pages)):
        if index in stored:
            continue
        d.boundary(job)
        if _expired(pages[index]):
            pages = _pages_again(d, source, transport, chapter, len(pages))
        try:
            stored[index] = _fetch_page(d, source, transport, pages[index], staging, index, len(pages))
        except (Transient, Refused, NotFound) as e:
            if pages[index].expires is None:
                raise
            # An at-home style URL: its node failed or its token ran out; ask for fresh URLs once.
            log.info("page %d of %s: %s; asking %s for its pages again", index + 1, chapter.id, e.message, source.name)
            pages = _pages_again(d, source, transport, chapter, len(pages))
            stored[index] = _fetch_page(d, source, transport, pages[index], staging, index, len(pages))
        _page_stored(d, job, chapter, stored, every=1)


def _stage_announced(d, job, source, transport, chapter, pages, staging, stored):
    """Pages announced with size and SHA-256: page n + 1 is fetched and checked against them while a
    helper thread verifies page n as an image and writes it without fsync (the image decode costs
    about as much as the fetch). A page that is no image is fetched once more before it fails."""
    with ThreadPoolExecutor(1, thread_name_prefix="stage-page") as helper:
        writing = None  # (index, future of its file name)
        for index in range(len(pages)):
            if index in stored:
                continue
            d.boundary(job)
            data = _fetch_announced(source, transport, pages[index], index)
            d.progress.touch()
            if writing:
                stored[writing[0]] = _written(d, source, transport, pages, staging, *writing)
                _page_stored(d, job, chapter, stored, every=CHECKPOINT_PAGES)
            writing = index, helper.submit(d.library.store_page, staging, index, len(pages), data,
                                           pages[index].name, sync=False)
        if writing:
            stored[writing[0]] = _written(d, source, transport, pages, staging, *writing)
            _page_stored(d, job, chapter, stored, every=CHECKPOINT_PAGES)


def _written(d, source, transport, pages, staging, index, future):
    """The file name of a page its helper stored; fetched and stored once more when it was no image."""
    try:
        return future.result()
    except BadImage:
        data = _fetch_announced(source, transport, pages[index], index)
        try:
            return d.library.store_page(staging, index, len(pages), data, pages[index].name, sync=False)
        except BadImage as e:
            raise BadImage(f"page {index + 1}: {e.message}") from None


def _page_stored(d, job, chapter, stored, every):
    d.progress.touch()
    if len(stored) % every == 0:
        staging = f".staging/{names.staging_name(job['id'], chapter.id)}"
        queue.checkpoint(d.queue, job, chapter.id, len(stored), staging, durable=False)
    d.set_progress(page=len(stored))
    d.heartbeat(at_most_every=PAGE_BEAT_SECONDS)


def _expired(page):
    return page.expires is not None and page.expires <= queue.now_ms()


def _pages_again(d, source, transport, chapter, count):
    pages = source.pages(transport, chapter.id)
    d.progress.touch()
    if len(pages) != count:
        raise ScraperError(f"{source.name} now lists {len(pages)} pages for chapter {chapter.number or chapter.id}, "
                           f"not {count}; the job starts the chapter again at its next try")
    return pages


def _fetch_page(d, source, transport, page, staging, index, count):
    """Fetch and store one page; a body that is no image is fetched once more before giving up.
    The source hears how each fetch went (MangaDex asks for a report per image)."""
    return _fetch(source, transport, page, index,
                  lambda data: d.library.store_page(staging, index, count, data, page.name))


def _fetch_announced(source, transport, page, index):
    """The bytes of a page as announced; a body of another size or hash, or a web page, is fetched
    once more before giving up."""
    return _fetch(source, transport, page, index, lambda data: data)


def _fetch(source, transport, page, index, keep):
    """keep(the page's bytes), fetched once more when they are no image or not as announced."""
    for attempt in (1, 2):
        record, ok = [], False
        try:
            data, content_type = transport.fetch_page(page, record)
            if content_type in _HTML_TYPES:
                raise BadImage(f"the server sent {content_type} instead of an image")
            _check_announced(page, data)
            kept = keep(data)
            ok = True
            return kept
        except (BadImage, Mismatch) as e:
            if attempt == 2:
                raise BadImage(f"page {index + 1}: {e.message}") from None
        finally:
            if record:
                source.page_fetched(transport, page, record, ok)


def _check_announced(page, data):
    """Mismatch when the bytes are not those the source announced (size, then SHA-256)."""
    if page.size is not None and len(data) != page.size:
        raise Mismatch(f"{len(data)} bytes arrived where {page.size} were announced")
    if page.sha256 is not None and hashlib.sha256(data).hexdigest() != page.sha256:
        raise Mismatch(f"its SHA-256 is not the one announced ({page.sha256[:12]}…)")


def _compact(info):
    return {k: v for k, v in dataclasses.asdict(info).items() if v not in (None, "", ())}


def _chapter_json(source, chapter):
    # "source" is the version's label in the reader, the folder's [bracket]; "module" the source module.
    label = names.clean(chapter.group or source.name, fallback="", max_bytes=80)
    meta = {"title": chapter.title or None, "source": label or None, "module": source.key, "sourceId": chapter.id,
            "number": chapter.number, "volume": chapter.volume, "groups": [chapter.group] if chapter.group else None,
            "language": chapter.language or None, "url": chapter.url, "published": chapter.published,
            "fetched": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    return {k: v for k, v in meta.items() if v is not None}


def _manga_json(source, entry):
    info = entry.get("info") or {}
    url = str(info.get("url", ""))
    links = {k: v for k, v in (info.get("links") or {}).items() if str(v).startswith(("http://", "https://"))}
    if not links and url.startswith(("http://", "https://")):
        links = {source.name: url}
    meta = {"title": info.get("title"), "altTitles": list(info.get("alt_titles") or []) or None,
            "authors": list(info.get("authors") or []) or None,
            "artists": list(info.get("artists") or []) or None, "description": info.get("description"),
            "status": info.get("status"), "direction": info.get("direction"), "language": entry.get("lang") or None,
            "year": info.get("year"), "tags": list(info.get("tags") or []) or None, "links": links or None,
            "sources": {source.key: entry["id"]}}
    return {k: v for k, v in meta.items() if v is not None}
