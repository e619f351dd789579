"""Spring-style lists: page/size/sort/unpaged in the query, the Page wrapper in the answer, and
list parameters in every style the apps send (repeated, "a,b", "a, b"), case-insensitive."""
import math
import random

from mangacircus.errors import Invalid

DEFAULT_SIZE = 20
MAX_SIZE = 2000


def values(request, name):
    """The union of a list parameter's values, trimmed, without empties (case kept)."""
    found = []
    for raw in request.GET.getlist(name):
        found += [v.strip() for v in raw.split(",") if v.strip()]
    return found


def upper_values(request, name):
    return {v.upper() for v in values(request, name)}


def _int(request, name, default):
    raw = request.GET.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise Invalid(f"{name} must be a whole number") from None


def sorts(request):
    """[(property, descending)] from repeated sort=prop,dir parameters."""
    found = []
    for raw in request.GET.getlist("sort"):
        prop, _, direction = raw.partition(",")
        prop = prop.strip()
        if prop:
            found.append((prop, direction.strip().lower() == "desc"))
    return found


def apply_sort(items, request, keys, default):
    """Sort `items` by the request's sort properties that `keys` ({property: key function}) knows
    (unknown ones are ignored), else by `default`; "random" shuffles."""
    wanted = [(p, d) for p, d in sorts(request) if p in keys or p == "random"] or default
    if any(p == "random" for p, _ in wanted):
        items = list(items)
        random.shuffle(items)
        return items
    for prop, desc in reversed(wanted):
        items = sorted(items, key=keys[prop], reverse=desc)
    return items


def _sort_dto(sorted_):
    return {"empty": not sorted_, "sorted": sorted_, "unsorted": not sorted_}


def page(items, request, convert):
    """The Page wrapper of the slice the request asks for; `convert` makes each item's DTO."""
    total = len(items)
    sorted_ = bool(sorts(request))
    if request.GET.get("unpaged", "").lower() == "true":
        number, size = 0, max(total, DEFAULT_SIZE)
        content = [convert(i) for i in items]
        paged = False
    else:
        number = max(_int(request, "page", 0), 0)
        size = _int(request, "size", DEFAULT_SIZE)
        size = DEFAULT_SIZE if size < 1 else min(size, MAX_SIZE)
        content = [convert(i) for i in items[number * size:(number + 1) * size]]
        paged = True
    pages = math.ceil(total / size) if total else 0
    return {
        "content": content,
        "pageable": {"sort": _sort_dto(sorted_), "offset": number * size, "pageNumber": number, "pageSize": size,
                     "paged": paged, "unpaged": not paged},
        "last": number + 1 >= pages, "totalElements": total, "totalPages": pages, "size": size, "number": number,
        "sort": _sort_dto(sorted_), "first": number == 0, "numberOfElements": len(content),
        "empty": not content,
    }


def empty_page(request):
    return page([], request, lambda i: i)
