"""Build the offline pack (issue 22): what the phone needs to score and draw a hand without the server.

Two parts, each checked by its SHA-256 in the phone before it is kept:
- the runtime: the pinned Pyodide's own files (npm's `pyodide` package, installed by `npm ci` from the committed
  package-lock.json, which holds its integrity hash), served as static files under `offline/pyodide/`;
- the app: one zip of the project's Python as the server runs it (the engine, the presentation package with the
  trainer's questions, the phone's entry point), the Jinja2 templates of the card, the strip, the trainer's
  question and the verdict's picture (with the tile faces it draws) compiled to Python modules here as the
  server compiles them (Jinja2's `compile_templates`: the phone imports them with its `ModuleLoader` and never runs
  the template compiler, whose passing peak would outgrow the heap a snapshot can be restored into), the compiled
  message catalogues, the static URLs the card links to, and Jinja2, MarkupSafe and segno (the picture's QR code)
  from the server's own environment (pure Python; MarkupSafe's optional C speed-up is left out, it falls back to
  its Python twin).

The Web Worker that runs it (static/js/offline-worker.js) is copied beside the zip: it speaks the pack's protocol.
The pack's version is a hash of every part: the page compares the version it was served with the one the phone
keeps, and a different one replaces the pack. The zip is deterministic (sorted names, fixed times), so the same
sources give the same version on every machine.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import io
import json
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from calculator.offline.phone import COMPILED_TEMPLATES, URLS
from calculator.presentation.render import compile_templates

# The runtime's files that the phone loads (the rest of npm's package is documentation and type declarations).
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# The app's Python, relative to the project's root: whole packages (their .py files and data).
APP_PACKAGES = ("calculator/engine", "calculator/ledger", "calculator/presentation", "calculator/offline")
APP_FILES = ("calculator/__init__.py",)
APP_DATA = (".py", ".toml")
LEFT_OUT = ("calculator/offline/served.py",)  # serving the pack: Django's side
# Libraries taken from the server's environment, as the server runs them (pure Python).
LIBRARIES = ("jinja2", "markupsafe", "segno")  # segno: the QR code of the verdict's picture
TEMPLATES = ("result.html", "strip.html", "trainer.html", "picture.svg", "claims.html", "share.html")  # of jinja2/
TILE_ART = "static/tiles"  # the tile faces the verdict's picture draws (each <tile>.svg; not the sprite)
WORKER = "static/js/offline-worker.js"  # the Web Worker that runs the pack, copied beside the app's zip
PAGES = ("calculator", "rules", "trainer", "claims")  # the pages the card may link to, by name
MANIFEST = "manifest.json"
ZIP_TIME = (2020, 1, 1, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Part:
    """One file of the pack: its name (under the pack's folder or the runtime's URL), size raw and gzipped (what
    a phone downloads when the server compresses it), and its SHA-256 (hex)."""

    name: str
    size: int
    gzip_size: int
    sha256: str

    @classmethod
    def of(cls, name: str, data: bytes) -> Part:
        return cls(name, len(data), len(gzip.compress(data, 9, mtime=0)), hashlib.sha256(data).hexdigest())


@dataclass(frozen=True, slots=True)
class Manifest:
    version: str
    pyodide: str  # the pinned runtime's version (npm's)
    lock_info: dict  # pyodide-lock.json's "info": the phone's loader checks it against the runtime
    runtime: tuple[Part, ...]
    app: Part
    worker: Part

    @property
    def gzip_size(self) -> int:
        return self.app.gzip_size + self.worker.gzip_size + sum(part.gzip_size for part in self.runtime)

    def to_dict(self) -> dict:
        return {**asdict(self), "gzip_size": self.gzip_size}

    @classmethod
    def from_dict(cls, data: dict) -> Manifest:
        return cls(
            data["version"],
            data["pyodide"],
            data["lock_info"],
            tuple(Part(**part) for part in data["runtime"]),
            Part(**data["app"]),
            Part(**data["worker"]),
        )


class PackError(Exception):
    """The pack cannot be built (the runtime is not installed, a catalogue is not compiled)."""


def app_files(root: Path, locale_dir: Path, urls: dict[str, dict[str, str]]) -> Iterator[tuple[str, bytes]]:
    """Every file of the app's zip, by its name in the zip, in a fixed order."""
    for package in APP_PACKAGES:
        for path in sorted((root / package).rglob("*")):
            name = path.relative_to(root).as_posix()
            if path.suffix in APP_DATA and "__pycache__" not in path.parts and name not in LEFT_OUT:
                yield name, path.read_bytes()
    for name in APP_FILES:
        yield name, (root / name).read_bytes()
    yield from compiled_templates()
    for path in sorted((root / TILE_ART).glob("*.svg")):
        if path.name != "tiles.svg":
            yield path.relative_to(root).as_posix(), path.read_bytes()
    yield from catalogues(locale_dir)
    for library in LIBRARIES:
        yield from library_files(library)
    yield URLS, json.dumps(urls, sort_keys=True, ensure_ascii=False).encode()


def compiled_templates() -> Iterator[tuple[str, bytes]]:
    """The card's templates compiled to Python modules (one `tmpl_<sha1 of its name>.py` each), under
    COMPILED_TEMPLATES."""
    with tempfile.TemporaryDirectory() as folder:
        compile_templates(TEMPLATES, Path(folder))
        for path in sorted(Path(folder).iterdir()):
            yield f"{COMPILED_TEMPLATES}/{path.name}", path.read_bytes()


def catalogues(locale_dir: Path) -> Iterator[tuple[str, bytes]]:
    """The compiled catalogues (locale/<lang>/LC_MESSAGES/<domain>.mo: the pages' django.mo, the engine's and the
    ledger's answers.mo), which the phone reads with `gettext`."""
    for po in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            raise PackError(f"{mo} is missing or older than its .po: run `manage.py compilemessages` first")
        yield mo.relative_to(locale_dir.parent).as_posix(), mo.read_bytes()


def library_files(name: str) -> Iterator[tuple[str, bytes]]:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise PackError(f"{name} is not installed in this environment (requirements.txt)")
    folder = Path(next(iter(spec.submodule_search_locations)))
    for path in sorted(folder.rglob("*.py")):
        if "__pycache__" not in path.parts:
            yield f"{name}/{path.relative_to(folder).as_posix()}", path.read_bytes()


def zipped(files: Iterator[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()


def runtime_parts(runtime_dir: Path) -> tuple[tuple[Part, ...], str, dict]:
    """The runtime's files as parts, npm's version of the package, and its lock file's "info"."""
    package = runtime_dir / "package.json"
    if not package.exists():
        raise PackError(f"Pyodide is not installed at {runtime_dir}: run `npm ci` (scripts/serve and scripts/test do)")
    version = json.loads(package.read_text())["version"]
    lock_info = json.loads((runtime_dir / "pyodide-lock.json").read_text())["info"]
    return tuple(Part.of(name, (runtime_dir / name).read_bytes()) for name in RUNTIME_FILES), version, lock_info


def build(
    out_dir: Path,
    *,
    root: Path,
    locale_dir: Path,
    runtime_dir: Path,
    static: Callable[[str], str],
    page: Callable[[str], str],
) -> Manifest:
    """Write the app's zip and the manifest into `out_dir` (a pack of another version there is removed) and
    return the manifest. `static` is the static files' URL function (Django's `static`), `page` a page's path
    by its name (as the presentation's `Locale.page` gives it)."""
    urls = {
        "static": {path: static(path) for path in static_paths(root / "static")},
        "pages": {name: page(name) for name in PAGES},
    }
    runtime, pyodide, lock_info = runtime_parts(runtime_dir)
    data = zipped(app_files(root, locale_dir, urls))
    script = (root / WORKER).read_bytes()
    digest = hashlib.sha256("".join(part.sha256 for part in runtime).encode() + data + script).hexdigest()
    version = digest[:16]
    app, worker = Part.of(f"app-{version}.zip", data), Part.of(f"worker-{version}.js", script)
    manifest = Manifest(version, pyodide, lock_info, runtime, app, worker)
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in (*out_dir.glob("app-*.zip"), *out_dir.glob("worker-*.js")):
        if old.name not in (app.name, worker.name):
            old.unlink()
    (out_dir / app.name).write_bytes(data)
    (out_dir / worker.name).write_bytes(script)
    (out_dir / MANIFEST).write_text(json.dumps(manifest.to_dict(), indent=2, sort_keys=True) + "\n")
    return manifest


def static_paths(static_dir: Path) -> list[str]:
    """The static files the card may link to: the tile pictures (the only static files the presenter names)."""
    return sorted(path.relative_to(static_dir).as_posix() for path in (static_dir / "tiles").glob("*.svg"))


def read_manifest(out_dir: Path) -> Manifest | None:
    try:
        return Manifest.from_dict(json.loads((out_dir / MANIFEST).read_text()))
    except (OSError, ValueError, KeyError, TypeError):
        return None
