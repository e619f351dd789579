"""The rule of tests/test_translations.py for the browser's scripts (docs/translating.md): the English
string literals a script may show that are not marked for translation.

1. Read the script's string literals ('…', "…" and the fixed parts of `…${x}…`), past comments and
   regular expressions.
2. Drop what is marked: every literal inside gettext(…), ngettext(…), pgettext(…) or npgettext(…),
   and what is code by its place: a class list (`className: "tile read"`, `classList.add(…)`), a
   selector given to querySelector, closest or matches, and "use strict".
3. A literal is English a reader may see when it reads as words: a capitalised word ("Delete",
   "Saved.") or two words with a space between them ("no pages"), and it is not code: a CSS selector
   (".tile a", "button[data-x]"), a path or URL, a key or header name (KEYS), a data key ("a_b",
   "camelCase"),
   or one of the names that are the same in every language (untranslated.EXCEPTIONS).
4. A line may say why its literal is not shown with a trailing `// not shown: <why>` comment (a
   message written to the console, a value sent to the server).
"""
import re

from .untranslated import EXCEPTIONS

# Names a script uses that are English words but never shown: keys, headers, HTTP methods, events,
# the DOM's and Intl's own names.
KEYS = {"ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Escape", "Enter", "Home", "End", "PageUp",
        "PageDown", "Tab", "Backspace", "Delete", "Shift", "Control", "Alt", "Meta", "Space",
        "Content-Type", "Accept", "Authorization", "Cache-Control", "X-CSRFToken", "If-None-Match",
        "ETag", "Range", "Content-Length", "Last-Modified", "Retry-After", "GET", "POST", "PUT",
        "PATCH", "DELETE", "HEAD", "AbortError", "TypeError", "NotAllowedError", "QuotaExceededError",
        "InvalidStateError", "NotFoundError", "SecurityError", "Notification", "PushManager",
        "BroadcastChannel"}

_CALL = re.compile(r"\b(?:np|n|p)?gettext\s*\(")
_WORDS = re.compile(r"[A-Z][a-z]+|[A-Za-z]{2,}[.,!?]?\s+[A-Za-z]{2,}")
_SELECTOR = re.compile(r"^[\w\s.#\[\]=\-:>+~*,()\"'^$|]*$")
_CODE_MARK = re.compile(r"[.#\[\]>:=]")
_NOT_SHOWN = "// not shown:"
# What no selector holds: a capitalised word first ("Shares: ") or before a space, three words in a row, or
# a sentence's end ("nothing with this server.").
_PROSE = re.compile(r"^[A-Z][a-z]+|[A-Z][a-z]+[:.,!?]?\s+\S|[a-z]{2,} [a-z]{2,} [a-z]{2,}|[a-z]{2,}[.!?]$")
_CLASS_CONTEXT = re.compile(r"(className\s*[:=]|classList\.\w+\(|\.(?:closest|querySelector(?:All)?|matches)\()"
                            r"[^,;{}]*$")
_KEYWORD_BEFORE = re.compile(r"\b(return|typeof|case|in|of)\s*$")
_DATA_KEY = re.compile(r"\w+(_\w+)+|[a-z]+[A-Z][A-Za-z]*")
_REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^") | {""}


def literals(source):
    """(line, text, marked) for each string literal of a script; a template literal's ${…} parts
    become "{}"."""
    found, i, n, line = [], 0, len(source), 1
    depth_marked, stack = 0, []  # parentheses of gettext calls we are inside
    last = ""  # the last significant character, to tell a regular expression from a division
    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
            continue
        if source.startswith("/*", i):
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += source.count("\n", i, end)
            i = end
            continue
        if c == "/" and (last in _REGEX_BEFORE or _KEYWORD_BEFORE.search(source[max(0, i - 8):i])):
            i = _skip_regex(source, i)
            last = "x"
            continue
        if c in "'\"`":
            text, end = _read_string(source, i)
            found.append((line, text, depth_marked > 0 or _is_code_context(source, i)))
            line += source.count("\n", i, end)
            i, last = end, "x"
            continue
        starts_name = c.isalpha() and (i == 0 or not (source[i - 1].isalnum() or source[i - 1] in "_$."))
        match = _CALL.match(source, i) if starts_name else None
        if match:
            depth_marked += 1
            stack.append("mark")
            i, last = match.end(), "("
            continue
        if c == "(":
            stack.append("(")
        elif c == ")" and stack:
            if stack.pop() == "mark":
                depth_marked -= 1
        if not c.isspace():
            last = c if not (c.isalnum() or c in "_$") else "x"
        i += 1
    return found


def _is_code_context(source, i):
    """A literal that is a class list, a "use strict" or a key of an element's dataset or style."""
    before = source[source.rfind("\n", 0, i) + 1:i]
    return bool(_CLASS_CONTEXT.search(before)) or source.startswith(("'use strict'", '"use strict"'), i)


def _skip_regex(source, i):
    i, in_class = i + 1, False
    while i < len(source) and source[i] != "\n":
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            i += 1
            while i < len(source) and source[i].isalpha():
                i += 1
            return i
        i += 1
    return i


def _read_string(source, i):
    quote, i, parts = source[i], i + 1, []
    while i < len(source):
        c = source[i]
        if c == "\\":
            parts.append(source[i + 1:i + 2])
            i += 2
            continue
        if c == quote:
            return "".join(parts), i + 1
        if quote == "`" and source.startswith("${", i):
            depth, i = 1, i + 2
            while i < len(source) and depth:
                depth += {"{": 1, "}": -1}.get(source[i], 0)
                i += 1
            parts.append("{}")
            continue
        parts.append(c)
        i += 1
    return "".join(parts), i


def is_shown_english(text):
    """Whether a literal reads as words a reader may see (rule 3)."""
    bare = text.replace("{}", " ").strip()
    if not _WORDS.search(bare) or bare in KEYS or bare in EXCEPTIONS:
        return False
    if bare.startswith(("/", "<", "http://", "https://", "./", "../")) or _DATA_KEY.fullmatch(bare):
        return False
    return not (_SELECTOR.match(bare) and _CODE_MARK.search(bare) and not _PROSE.search(bare))


def findings(source):
    """(line, text) of each unmarked English literal of a script."""
    lines = source.split("\n")
    return [(line, text) for line, text, marked in literals(source)
            if not marked and is_shown_english(text) and _NOT_SHOWN not in lines[line - 1]]
