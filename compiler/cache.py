"""A content-addressed cache of expensive, exact results: the analyses behind Rules Submission
documents (``compiler.submission.document.analysis_of``) and, for ``rulespec build --check``, the
outputs of a whole build (``compiler.build``, keyed by every file under ``rulespecs/``).

An entry is keyed by everything its value depends on: the content of the chapter's rulespec (its
loaded data), the inputs (a submission's selections), the compiler's version and a hash of the
compiler's own source (``compiler/**`` and ``schemas/``), the Python version and the versions of
numpy, jinja2, lark, pyyaml and jsonschema. Change
any of them and the key changes; nothing is ever invalidated by hand.

Entries live in ``.cache/rulespec/`` at the project root (ignored by git), or in
``$RULESPEC_CACHE_DIR``; ``RULESPEC_NO_CACHE=1`` or ``rulespec build --no-cache`` recomputes
everything. An entry is one JSON file ``<key>.json`` (its name is the digest of its full key: the kind,
the compiler and every part) holding its key and the SHA-256 of its format, key and value together:
a damaged entry (not JSON, truncated, another key, a digest that does not match, a value that does
not decode, an entry swapped with another one and its key field edited) is ignored with a warning on
stderr, recomputed and rewritten. Only a regular file is read as an entry: a FIFO, a device, a
directory or a link in its place is refused without being opened for reading (``os.lstat`` first,
then opened non-blocking and checked again), and so is an entry larger than ``ENTRY_LIMIT``.

What goes into a filed document is not taken on the cache's word by ``rulespec build --check``:
there ``verifying()`` is on, and ``cached(..., verify=True)`` (the analyses behind Rules Submission
documents) recomputes the value and compares it with the entry (compiler/build.py). Values are
exact: a ``Fraction`` is stored as ``numerator/denominator``, a ``Decimal`` as its string, tuples
and ordered mappings tagged.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
import sys
import threading
from contextlib import contextmanager
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

FORMAT = 2  # 2: the digest covers the format and the key as well as the value
ENTRY_LIMIT = 256 * 1024 * 1024  # bytes: an entry larger than this is refused unread
PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent

_enabled: bool | None = None
_directory: Path | None = None
_verifying = False
stats = {"hits": 0, "misses": 0, "damaged": 0}


def configure(enabled: bool | None = None, directory: str | Path | None = None) -> None:
    """Turn the cache on or off (``--no-cache``) or move it; ``None`` leaves a setting as it is."""
    global _enabled, _directory
    if enabled is not None:
        _enabled = enabled
    if directory is not None:
        _directory = Path(directory)


_thread = threading.local()


@contextmanager
def read_only():
    """In this thread, entries are read but none is written (``rulespec serve``: each distinct set of
    a visitor's selections would otherwise add files to the cache without bound)."""
    before = getattr(_thread, "read_only", False)
    _thread.read_only = True
    try:
        yield
    finally:
        _thread.read_only = before


def enabled() -> bool:
    if _enabled is not None:
        return _enabled
    return os.environ.get("RULESPEC_NO_CACHE", "") in ("", "0")


def directory() -> Path:
    if _directory is not None:
        return _directory
    env = os.environ.get("RULESPEC_CACHE_DIR")
    return Path(env) if env else ROOT / ".cache" / "rulespec"


@lru_cache(maxsize=1)
def compiler_fingerprint() -> str:
    """SHA-256 over the compiler's version and every source file that can change a result."""
    from importlib.metadata import PackageNotFoundError, version  # here: tens of ms at start-up

    h = hashlib.sha256()
    # the compiler's version and the libraries a result can depend on (numbers: numpy; parsing and
    # templates: the rest), read from their metadata without importing them
    for dist in ("rulespec", "numpy", "jinja2", "lark", "pyyaml", "jsonschema"):
        try:
            h.update(f"{dist} {version(dist)}\0".encode())
        except PackageNotFoundError:
            h.update(f"{dist} -\0".encode())
    files = [p for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts
             and p.suffix in (".py", ".lark", ".jinja", ".json")]
    schemas = ROOT / "schemas"
    if schemas.is_dir():
        files += [p for p in schemas.rglob("*.json") if p.is_file()]
    for p in sorted(files):
        h.update(p.relative_to(ROOT).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(p.read_bytes()).digest())
    h.update(f"python {sys.version_info[0]}.{sys.version_info[1]}".encode())
    return h.hexdigest()


def key_of(kind: str, *parts: Any) -> str:
    """The key of a result of ``kind`` from ``parts`` (each given by its exact ``repr``)."""
    h = hashlib.sha256()
    h.update(f"rulespec-cache {FORMAT} {kind}\0".encode())
    h.update(compiler_fingerprint().encode() + b"\0")
    for p in parts:
        r = repr(p).encode("utf-8", "surrogatepass")
        h.update(str(len(r)).encode() + b":" + r)
    return h.hexdigest()


# ---------------------------------------------------------------------------------------------
# Exact JSON encoding
# ---------------------------------------------------------------------------------------------

class Unencodable(TypeError):
    """A value the cache cannot store exactly; the caller computes it without caching."""


def encode(v: Any) -> Any:
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return {"$int": str(v)} if abs(v) > 2 ** 53 else v
    if isinstance(v, Fraction):
        return {"$frac": f"{v.numerator}/{v.denominator}"}
    if isinstance(v, Decimal):
        return {"$dec": str(v)}
    if isinstance(v, float):
        return {"$float": v.hex()}
    if isinstance(v, bytes):  # a filed PDF in a build record
        return {"$bytes": base64.b64encode(v).decode("ascii")}
    if isinstance(v, tuple):
        return {"$tuple": [encode(x) for x in v]}
    if isinstance(v, list):
        return [encode(x) for x in v]
    if isinstance(v, dict):
        if not all(isinstance(k, str) for k in v):
            raise Unencodable(f"mapping with a key that is not a string: {sorted(map(repr, v))[:3]}")
        return {"$dict": [[k, encode(x)] for k, x in v.items()]}
    raise Unencodable(f"cannot store a {type(v).__name__} exactly")


def decode(v: Any) -> Any:
    if isinstance(v, list):
        return [decode(x) for x in v]
    if isinstance(v, dict):
        if len(v) != 1:
            raise ValueError("not an encoded value")
        (tag, x), = v.items()
        if tag == "$frac":
            n, d = x.split("/")
            return Fraction(int(n), int(d))
        if tag == "$dec":
            return Decimal(x)
        if tag == "$int":
            return int(x)
        if tag == "$float":
            return float.fromhex(x)
        if tag == "$bytes":
            return base64.b64decode(x.encode("ascii"), validate=True)
        if tag == "$tuple":
            return tuple(decode(y) for y in x)
        if tag == "$dict":
            out = {}
            for k, y in x:
                if not isinstance(k, str):
                    raise ValueError("mapping key is not a string")
                out[k] = decode(y)
            return out
        raise ValueError(f"unknown tag {tag!r}")
    if v is None or isinstance(v, (bool, str, int)):
        return v
    raise ValueError(f"not an encoded value: {type(v).__name__}")


def _digest(key: str, encoded: Any) -> str:
    """SHA-256 of an entry's format, key and value: an entry moved under another name, or given
    another key, no longer matches its digest."""
    return hashlib.sha256(json.dumps({"format": FORMAT, "key": key, "value": encoded}, sort_keys=True,
                                     ensure_ascii=True, separators=(",", ":")).encode()).hexdigest()


def _path(key: str) -> Path:
    return directory() / key[:2] / f"{key}.json"


def _damaged(p: Path, why: str) -> tuple[bool, Any]:
    stats["damaged"] += 1
    print(f"warning: cache entry {p}: {why}; recomputed", file=sys.stderr)
    return False, None


def _read_entry(p: Path) -> bytes | None | str:
    """The bytes of a regular file at ``p``; None when there is none; a reason when something else is
    there (never opened for reading: a FIFO would block, a device would never end)."""
    try:
        st = os.lstat(p)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if st.st_size > ENTRY_LIMIT:
        return f"larger than {ENTRY_LIMIT // 2 ** 20} MB"
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(p, flags)
    except OSError as e:
        return f"cannot be opened ({e.strerror})"
    try:
        st = os.fstat(fd)  # what was opened, should another file have taken its place since lstat
        if not stat.S_ISREG(st.st_mode) or st.st_size > ENTRY_LIMIT:
            return "not a regular file"
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(ENTRY_LIMIT + 1)
    except OSError as e:
        return f"cannot be read ({e.strerror})"
    finally:
        os.close(fd)


def load(key: str) -> tuple[bool, Any]:
    """(True, value) for a sound entry; (False, None) when absent or damaged (with a warning)."""
    p = _path(key)
    raw = _read_entry(p)
    if raw is None:
        return False, None
    if isinstance(raw, str):
        return _damaged(p, raw)
    try:
        entry = json.loads(raw)
        if isinstance(entry, dict) and entry.get("format") != FORMAT and isinstance(entry.get("format"), int):
            return False, None  # written by another version of the cache: recomputed, no warning
        if not (isinstance(entry, dict) and entry.get("format") == FORMAT and entry.get("key") == key
                and entry.get("sha256") == _digest(key, entry["value"])):
            raise ValueError("entry does not match its key or its digest")
        return True, decode(entry["value"])
    except (ValueError, KeyError, TypeError, AttributeError, ZeroDivisionError, RecursionError) as e:
        return _damaged(p, f"damaged ({str(e)[:80] if isinstance(e, ValueError) else type(e).__name__})")


def store(key: str, value: Any) -> None:
    """Write an entry atomically; a cache that cannot be written is no error (the value is returned anyway)."""
    if getattr(_thread, "read_only", False):
        return
    try:
        enc = encode(value)
    except Unencodable:
        return
    entry = {"format": FORMAT, "key": key, "sha256": _digest(key, enc), "value": enc}
    p = _path(key)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(entry, ensure_ascii=True, separators=(",", ":")), encoding="ascii")
        tmp.replace(p)
    except OSError:
        return


@contextmanager
def verification():
    """While it lasts, ``cached(..., verify=True)`` recomputes and checks the entry (``build --check``)."""
    global _verifying
    before, _verifying = _verifying, True
    try:
        yield
    finally:
        _verifying = before


def verifying() -> bool:
    return _verifying


def cached(key: str, compute: Callable[[], Any], verify: bool = False) -> Any:
    """The stored value of ``key``, or ``compute()`` stored under it (always recomputed when disabled).
    With ``verify`` while ``verifying()``: always computed, and an entry holding another value is
    reported (a warning on stderr) and replaced."""
    if verify and _verifying:
        ok, old = load(key) if enabled() else (False, None)
        if ok and key in _computed and _computed[key] == _fingerprint(key, old):
            stats["hits"] += 1  # computed by this very process: nothing to verify
            return old
        value = _compute(key, compute)
        if enabled():
            same = ok and _fingerprint(key, old) == _computed.get(key) is not None
            if ok and not same:
                _damaged(_path(key), "holds another value than the one computed again by build --check")
            if not same:
                store(key, value)
        return value
    if enabled():
        ok, value = load(key)
        if ok:
            stats["hits"] += 1
            return value
    value = _compute(key, compute)
    if enabled():
        store(key, value)
    return value


_computed: dict[str, str] = {}  # key -> digest of the value this process computed (not read) for it


def _fingerprint(key: str, value: Any) -> str | None:
    try:
        return _digest(key, encode(value))
    except Unencodable:
        return None


def _compute(key: str, compute: Callable[[], Any]) -> Any:
    stats["misses"] += 1
    value = compute()
    _computed[key] = _fingerprint(key, value)
    return value
