"""A Kavita `kavita.db` made as Kavita makes it, for the import tests (docs/import.md, "Kavita").

The tables and columns are those of Kavita's EF Core model, API/Data/Migrations/
DataContextModelSnapshot.cs at https://github.com/Kareadita/Kavita commit
ed7e9d4a6e85c2ec04803ca86fb3d2b5ca15581a (2024-10-24); only the tables an import reads, and of
each the columns it reads plus a few others a real row fills. EF Core's SQLite provider writes
them as below: ids INTEGER AUTOINCREMENT, strings TEXT NULL, value types NOT NULL, a DateTime as
text "yyyy-MM-dd HH:mm:ss.FFFFFFF" (the …Utc columns in UTC, the others in the server's time).

Kavita stores a file's absolute path with forward slashes (Parser.NormalizePath), a chapter
without a number as "-100000" (MinNumber -100000, Parser.DefaultChapter), a file in no volume in
the volume -100000 (LooseLeafVolume) and a special in the volume 100000 (SpecialVolume).
"""
import sqlite3

from .conftest import MOON_1, MOON_2

NO_NUMBER = -100000
SPECIALS = 100000
STAMP = "2026-11-30 10:00:00"

TEXT, INT, REAL = "TEXT NULL", "INTEGER NOT NULL", "REAL NOT NULL"
DATE = "TEXT NOT NULL"
DATES = {"Created": DATE, "LastModified": DATE, "CreatedUtc": DATE, "LastModifiedUtc": DATE}

SCHEMA = {
    "AspNetRoles": {"Name": TEXT, "NormalizedName": TEXT, "ConcurrencyStamp": TEXT},
    "AspNetUsers": {"UserName": TEXT, "NormalizedUserName": TEXT, "Email": TEXT, "NormalizedEmail": TEXT,
                    "EmailConfirmed": INT, "PasswordHash": TEXT, "SecurityStamp": TEXT, "AgeRestriction": INT,
                    "RowVersion": INT, "Created": DATE, "CreatedUtc": DATE, "LastActive": DATE,
                    "LastActiveUtc": DATE},
    "AspNetUserRoles": {"UserId": INT, "RoleId": INT},
    "Library": {"Name": TEXT, "Type": INT, "LastScanned": DATE, **DATES},
    "FolderPath": {"Path": TEXT, "LastScanned": DATE, "LibraryId": INT},
    "Series": {"Name": TEXT, "NormalizedName": TEXT, "LocalizedName": TEXT, "NormalizedLocalizedName": TEXT,
               "SortName": TEXT, "OriginalName": TEXT, "FolderPath": TEXT, "LowestFolderPath": TEXT, "Format": INT,
               "Pages": INT, "LibraryId": INT, **DATES},
    "Volume": {"Name": TEXT, "LookupName": TEXT, "Number": INT, "MinNumber": REAL, "MaxNumber": REAL, "Pages": INT,
               "SeriesId": INT, **DATES},
    "Chapter": {"Range": TEXT, "Number": TEXT, "MinNumber": REAL, "MaxNumber": REAL, "SortOrder": REAL,
                "IsSpecial": INT, "Title": TEXT, "TitleName": TEXT, "Pages": INT, "VolumeId": INT, **DATES},
    "MangaFile": {"FileName": TEXT, "FilePath": TEXT, "Extension": TEXT, "Format": INT, "Pages": INT, "Bytes": INT,
                  "ChapterId": INT, **DATES},
    "AppUserProgresses": {"PagesRead": INT, "VolumeId": INT, "SeriesId": INT, "LibraryId": INT, "ChapterId": INT,
                          "BookScrollId": TEXT, "AppUserId": INT, **DATES},
    "AppUserRating": {"Rating": REAL, "HasBeenRated": INT, "Review": TEXT, "Tagline": TEXT, "SeriesId": INT,
                      "AppUserId": INT},
    "AppUserWantToRead": {"SeriesId": INT, "AppUserId": INT},
    "AppUserCollection": {"Title": TEXT, "NormalizedTitle": TEXT, "Summary": TEXT, "Promoted": INT,
                          "AgeRating": "INTEGER NOT NULL DEFAULT 0", "Source": INT, "AppUserId": INT, **DATES},
    "AppUserCollectionSeries": {"CollectionsId": INT, "ItemsId": INT},
    "ReadingList": {"Title": "TEXT NOT NULL", "NormalizedTitle": "TEXT NOT NULL", "Summary": TEXT, "Promoted": INT,
                    "AgeRating": INT, "AppUserId": INT, **DATES},
    "ReadingListItem": {"SeriesId": INT, "VolumeId": INT, "ChapterId": INT, "Order": INT, "ReadingListId": INT},
}
JOIN_TABLES = {"AspNetUserRoles": ("UserId", "RoleId"), "AppUserCollectionSeries": ("CollectionsId", "ItemsId")}


def create(conn, tables=SCHEMA):
    for table, columns in tables.items():
        defs = [f'"{name}" {kind}' for name, kind in columns.items()]
        if table in JOIN_TABLES:
            keys = ", ".join(f'"{k}"' for k in JOIN_TABLES[table])
            defs.append(f'CONSTRAINT "PK_{table}" PRIMARY KEY ({keys})')
        else:
            defs.insert(0, f'"Id" INTEGER NOT NULL CONSTRAINT "PK_{table}" PRIMARY KEY AUTOINCREMENT')
        conn.execute(f'CREATE TABLE "{table}" ({", ".join(defs)})')


class Kavita:
    """Rows as Kavita's scanner and API write them, in one library whose folder is `folder`."""

    def __init__(self, path, folder="/data/manga"):
        self.conn = sqlite3.connect(path)
        create(self.conn)
        self.folder = folder
        self.series, self.volumes = {}, {}
        self.library = self.insert("Library", Name="Manga", Type=0, LastScanned=STAMP, **_dates())
        self.insert("FolderPath", Path=folder, LastScanned=STAMP, LibraryId=self.library)
        for role in ("Admin", "Pleb", "Download", "Change Password", "Bookmark", "Login"):
            self.insert("AspNetRoles", Name=role, NormalizedName=role.upper(), ConcurrencyStamp="x")

    def insert(self, table, **columns):
        names = ", ".join(f'"{c}"' for c in columns)
        marks = ", ".join("?" * len(columns))
        return self.conn.execute(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', tuple(columns.values())).lastrowid

    def user(self, name, admin=False):
        uid = self.insert("AspNetUsers", UserName=name, NormalizedUserName=name.upper(), Email=f"{name}@example.org",
                          NormalizedEmail=f"{name}@example.org".upper(), EmailConfirmed=1,
                          PasswordHash="AQAAAAIAAYagAAAAE", SecurityStamp="x", AgeRestriction=-1, RowVersion=0,
                          Created=STAMP, CreatedUtc=STAMP, LastActive=STAMP, LastActiveUtc=STAMP)
        for role in (("Admin",) if admin else ()) + ("Pleb", "Login"):
            rid = self.conn.execute('SELECT Id FROM AspNetRoles WHERE Name = ?', (role,)).fetchone()[0]
            self.insert("AspNetUserRoles", UserId=uid, RoleId=rid)
        return uid

    def add_series(self, name, original=None, localized=None):
        if name not in self.series:
            self.series[name] = self.insert(
                "Series", Name=name, NormalizedName=_normalized(name), LocalizedName=localized or "",
                NormalizedLocalizedName=_normalized(localized or ""), SortName=name, OriginalName=original or name,
                FolderPath=f"{self.folder}/{name}", LowestFolderPath=f"{self.folder}/{name}", Format=1, Pages=0,
                LibraryId=self.library, **_dates())
        return self.series[name]

    def volume(self, series, number):
        key = (series, number)
        if key not in self.volumes:
            name = str(number)
            self.volumes[key] = self.insert("Volume", Name=name, LookupName=name, Number=int(number),
                                            MinNumber=float(number), MaxNumber=float(number), Pages=0,
                                            SeriesId=self.add_series(series), **_dates())
        return self.volumes[key]

    def chapter(self, series, rel, number, pages, volume=NO_NUMBER, special=False, file_path=None):
        """A chapter of one file at `rel` below the library's folder (or at `file_path` as given);
        `number` None for a file with a volume only, or a special."""
        number = NO_NUMBER if number is None or special else number
        name = rel.rpartition("/")[2] if rel else "file.cbz"
        range_ = name.rpartition(".")[0] if special else str(number)
        cid = self.insert("Chapter", Range=range_, Number=str(number), MinNumber=float(number),
                          MaxNumber=float(number), SortOrder=float(number), IsSpecial=int(special),
                          Title=range_, TitleName="", Pages=pages,
                          VolumeId=self.volume(series, SPECIALS if special else volume), **_dates())
        self.insert("MangaFile", FileName=name.rpartition(".")[0], FilePath=file_path or f"{self.folder}/{rel}",
                    Extension=".cbz", Format=1, Pages=pages, Bytes=1000, ChapterId=cid, **_dates())
        return cid

    def progress(self, uid, cid, pages_read, utc="2026-11-30 12:00:00.1234567"):
        vid, sid = self.conn.execute('SELECT v.Id, v.SeriesId FROM Chapter c JOIN Volume v ON v.Id = c.VolumeId '
                                     'WHERE c.Id = ?', (cid,)).fetchone()
        # LastModified is the server's local time: two hours ahead here, so only the UTC one is right
        local = f"{int(utc[11:13]) + 2:02d}".join((utc[:11], utc[13:]))
        self.insert("AppUserProgresses", PagesRead=pages_read, VolumeId=vid, SeriesId=sid, LibraryId=self.library,
                    ChapterId=cid, AppUserId=uid, Created=local, LastModified=local, CreatedUtc=utc,
                    LastModifiedUtc=utc)

    def rating(self, uid, series, rating, rated=True):
        self.insert("AppUserRating", Rating=float(rating), HasBeenRated=int(rated), SeriesId=self.add_series(series),
                    AppUserId=uid)

    def want(self, uid, series):
        self.insert("AppUserWantToRead", SeriesId=self.add_series(series), AppUserId=uid)

    def collection(self, uid, title, series, promoted=False, summary=None):
        cid = self.insert("AppUserCollection", Title=title, NormalizedTitle=_normalized(title), Summary=summary,
                          Promoted=int(promoted), Source=0, AppUserId=uid, **_dates())
        for name in series:
            self.insert("AppUserCollectionSeries", CollectionsId=cid, ItemsId=self.add_series(name))

    def reading_list(self, uid, title, chapters=()):
        rid = self.insert("ReadingList", Title=title, NormalizedTitle=_normalized(title), Promoted=0, AgeRating=0,
                          AppUserId=uid, **_dates())
        for order, cid in enumerate(chapters):
            vid, sid = self.conn.execute('SELECT v.Id, v.SeriesId FROM Chapter c JOIN Volume v ON v.Id = c.VolumeId '
                                         'WHERE c.Id = ?', (cid,)).fetchone()
            self.insert("ReadingListItem", SeriesId=sid, VolumeId=vid, ChapterId=cid, Order=order, ReadingListId=rid)

    def close(self):
        self.conn.commit()
        self.conn.close()


def _dates():
    return {column: STAMP for column in DATES}


def _normalized(text):
    """Near enough to Kavita's Parser.Normalize: letters and digits, lower-cased."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def standard(path):
    """The library of tests/imports/conftest.py as a Kavita server knows it: alice (an admin) finished
    Moon Garden 1 and read two pages of chapter 2; bob read a page of Long Scroll 3, which Kavita
    knows under another file name (found by number), and of its volume 2, which has no chapter
    number; a series that is not here; a special; a file whose path climbs out with '..' and one
    outside the library's folder; dan@home, a name no account can have; ratings, want-to-read, two
    collections and a reading list."""
    k = Kavita(path)
    alice, bob, dan = k.user("alice", admin=True), k.user("bob"), k.user("dan@home")
    moon_1 = k.chapter("Moon Garden", MOON_1, 1, 3, volume=1)
    moon_2 = k.chapter("Moon Garden", MOON_2, 2, 4)
    scroll_3 = k.chapter("Long Scroll", "Long Scroll/Long Scroll 003.cbz", 3, 2, volume=1)
    scroll_v2 = k.chapter("Long Scroll", "Long Scroll/Long Scroll v02.cbz", None, 6, volume=2)
    star = k.chapter("Star Sea", "Star Sea/Star Sea 01.cbz", 1, 10)
    special = k.chapter("Moon Garden", "Moon Garden/Specials/Moon Garden SP01.cbz", None, 5, special=True)
    climbs = k.chapter("Moon Garden", None, 9, 9, file_path="/data/manga/../../etc/passwd.cbz")
    elsewhere = k.chapter("Moon Garden", None, 10, 9, file_path="/elsewhere/Moon Garden/Moon Garden 010.cbz")
    k.progress(alice, moon_1, 3)
    k.progress(alice, moon_2, 2, utc="2026-12-01 08:30:00")
    k.progress(alice, climbs, 1)
    k.progress(alice, special, 2)
    k.progress(bob, scroll_3, 1)
    k.progress(bob, scroll_v2, 1)
    k.progress(bob, star, 5)
    k.progress(bob, moon_2, 0)  # marked unread there
    k.progress(bob, elsewhere, 1)
    k.progress(dan, moon_1, 1)
    k.rating(alice, "Moon Garden", 4.5)
    k.rating(alice, "Star Sea", 3)
    k.rating(bob, "Long Scroll", 0, rated=False)
    k.rating(bob, "Moon Garden", 0.4)
    k.want(bob, "Moon Garden")
    k.want(alice, "Star Sea")
    k.collection(alice, "Favourites", ["Star Sea", "Moon Garden", "Long Scroll"], promoted=True,
                 summary="The best ones.")
    k.collection(bob, "Later", ["Moon Garden"])
    k.reading_list(alice, "Summer reading", [moon_1, scroll_3])
    k.close()
    return path
