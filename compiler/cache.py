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
everything. An entry is one JSON file ``<key>.json`` holding its key and the SHA-256 of its value:
a damaged entry (not JSON, truncated, another key, a value whose hash does not match, a value that
does not decode) is ignored, recomputed and rewritten. Values are exact: a ``Fraction`` is stored
as ``numerator/denominator``, a ``Decimal`` as its string, tuples and ordered mappings tagged.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import sys
import threading
from contextlib import contextmanager
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Callable

FORMAT = 1
PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent

_enabled: bool | None = None
_directory: Path | None = None
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


def _digest(encoded: Any) -> str:
    return hashlib.sha256(json.dumps(encoded, sort_keys=True, ensure_ascii=True,
                                     separators=(",", ":")).encode()).hexdigest()


def _path(key: str) -> Path:
    return directory() / key[:2] / f"{key}.json"


def load(key: str) -> tuple[bool, Any]:
    """(True, value) for a sound entry; (False, None) when absent or damaged."""
    p = _path(key)
    try:
        raw = p.read_bytes()
    except OSError:
        return False, None
    try:
        entry = json.loads(raw)
        if not (isinstance(entry, dict) and entry.get("format") == FORMAT and entry.get("key") == key
                and entry.get("sha256") == _digest(entry["value"])):
            raise ValueError("entry does not match its key or its hash")
        return True, decode(entry["value"])
    except (ValueError, KeyError, TypeError, AttributeError, ZeroDivisionError, RecursionError):
        stats["damaged"] += 1
        return False, None


def store(key: str, value: Any) -> None:
    """Write an entry atomically; a cache that cannot be written is no error (the value is returned anyway)."""
    if getattr(_thread, "read_only", False):
        return
    try:
        enc = encode(value)
    except Unencodable:
        return
    entry = {"format": FORMAT, "key": key, "sha256": _digest(enc), "value": enc}
    p = _path(key)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(entry, ensure_ascii=True, separators=(",", ":")), encoding="ascii")
        tmp.replace(p)
    except OSError:
        return


def cached(key: str, compute: Callable[[], Any]) -> Any:
    """The stored value of ``key``, or ``compute()`` stored under it (always recomputed when disabled)."""
    if enabled():
        ok, value = load(key)
        if ok:
            stats["hits"] += 1
            return value
    stats["misses"] += 1
    value = compute()
    if enabled():
        store(key, value)
    return value
