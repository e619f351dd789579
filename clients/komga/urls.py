"""/komga/: the Komga-compatible API for reading apps (docs/apps.md). No trailing slashes: a
redirect would break PATCH and the image URLs Mihon builds from the final /pages URL."""
from django.urls import path, re_path, register_converter

from . import book_views as books
from . import collection_views as collections
from . import misc_views as misc
from . import readlist_views as readlists
from . import referential_views as referential
from . import series_views as series


class SeriesId:
    regex = "s[a-z2-7]{20}"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


class BookId(SeriesId):
    regex = "b[a-z2-7]{20}"


class CollectionId(SeriesId):
    regex = "c[a-z2-7]{20}"


class ReadListId(SeriesId):
    regex = "r[a-z2-7]{20}"


register_converter(SeriesId, "sid")
register_converter(CollectionId, "cid")
register_converter(ReadListId, "rid")
register_converter(BookId, "bid")

# Relative to komga/ (mangacircus/urls.py includes them second, after /lib/: page images are the
# most frequent requests here too, so they come first).
V1 = "api/v1/"
urlpatterns = [
    path(V1 + "books/<bid:bid>/pages/<int:n>", books.book_page),
    path(V1 + "books/<bid:bid>/pages", books.book_pages),
    path(V1 + "books/<bid:bid>/read-progress", books.book_read_progress),
    path(V1 + "series", series.series_list, name="komga-series"),
    path(V1 + "series/list", series.series_search),
    path(V1 + "series/new", series.series_new),
    path(V1 + "series/updated", series.series_updated),
    path(V1 + "series/release-dates", misc.nothing),
    path(V1 + "series/<sid:sid>", series.series_one),
    path(V1 + "series/<sid:sid>/books", books.series_books),
    path(V1 + "series/<sid:sid>/thumbnail", series.series_thumbnail),
    path(V1 + "series/<sid:sid>/read-progress", series.series_read_progress),
    path(V1 + "series/<sid:sid>/collections", collections.series_collections),
    path("api/v2/series/<sid:sid>/read-progress/tachiyomi", series.tachiyomi),
    path(V1 + "books", books.books_list),
    path(V1 + "books/list", books.books_search),
    path(V1 + "books/latest", books.books_latest),
    path(V1 + "books/ondeck", books.books_ondeck),
    path(V1 + "books/<bid:bid>", books.book_one),
    path(V1 + "books/<bid:bid>/next", books.book_next),
    path(V1 + "books/<bid:bid>/previous", books.book_previous),
    path(V1 + "books/<bid:bid>/readlists", readlists.book_readlists),
    path(V1 + "books/<bid:bid>/thumbnail", books.book_thumbnail),
    path(V1 + "books/<bid:bid>/pages/<int:n>/thumbnail", books.book_page_thumbnail),
    path(V1 + "books/<bid:bid>/file", books.book_file),
    path(V1 + "libraries", misc.libraries),
    path(V1 + "libraries/<str:lid>", misc.library_one),
    path(V1 + "genres", misc.genres),
    path(V1 + "publishers", misc.publishers),
    path(V1 + "languages", misc.languages),
    path(V1 + "tags", referential.tags),
    path(V1 + "tags/book", referential.book_tags),
    path(V1 + "tags/series", referential.series_tags),
    re_path(r"^api/v1/(?:age-ratings|sharing-labels)$", misc.nothing),
    path(V1 + "authors", referential.authors_v1),
    path(V1 + "authors/names", referential.author_names_v1),
    path(V1 + "authors/roles", referential.author_roles_v1),
    path("api/v2/authors", referential.authors_v2),
    path("api/v2/authors/names", referential.author_names_v2),
    path("api/v2/authors/roles", referential.author_roles_v2),
    path(V1 + "collections", collections.collections_list),
    path(V1 + "collections/<cid:cid>", collections.collection_one),
    path(V1 + "collections/<cid:cid>/series", collections.collection_series),
    path(V1 + "collections/<cid:cid>/thumbnail", collections.collection_thumbnail),
    path(V1 + "readlists", readlists.readlists_list),
    path(V1 + "readlists/<rid:rid>", readlists.readlist_one),
    path(V1 + "readlists/<rid:rid>/books", readlists.readlist_books),
    path(V1 + "readlists/<rid:rid>/books/<bid:bid>/next", readlists.readlist_book_next),
    path(V1 + "readlists/<rid:rid>/books/<bid:bid>/previous", readlists.readlist_book_previous),
    path(V1 + "readlists/<rid:rid>/thumbnail", readlists.readlist_thumbnail),
    path("api/v2/users/me", misc.me, name="komga-me"),
    path("api/logout", misc.logout),
    path(V1 + "client-settings/global/list", misc.client_settings),
    # Everything else (the event stream, manifests, admin routes): 401 without credentials, else 404.
    re_path(r"^(?P<rest>[\s\S]*)$", misc.not_found),
]
