// The phone's heap after its warm-up, in Node (scripts/offline_heap.py builds the pack and runs this):
//   node scripts/offline_heap.mjs RUNTIME_DIR/ APP_ZIP
// Loads the pinned Pyodide as static/js/offline-worker.js does on a first start (a fresh interpreter that may make
// a snapshot, the app's zip unpacked at /app, `started('/app')`: compiled, imported, warmed), prints the heap's top
// (`sbrk(0)`) before and after the warm-up and the WebAssembly memory's size, makes the snapshot and then starts a second
// interpreter from it as a second start does. Pyodide 314.0.8 restores a snapshot only while the memory is still
// the 30 MiB its module starts with (pyodide/pyodide#6254): a warm-up that grows it cannot be restored.
// The heap's top is read through Pyodide's `_module` (Emscripten's exports): a measurement, not used by the app.
import { readFileSync } from "node:fs";

const [runtime, appZip] = process.argv.slice(2);
const { loadPyodide } = await import(runtime + "pyodide.mjs");
const app = new Uint8Array(readFileSync(appZip)); // a Node Buffer is not a type Pyodide converts
const MiB = 1024 * 1024;
const GOAL = 29 * MiB; // the heap's top after the warm-up: under Pyodide's 30 MiB, with room for the app to grow
const verdict = (ok) => (ok ? "PASS" : "FAIL");
const mib = (bytes) => (bytes / MiB).toFixed(2) + " MiB";

function start(py) {
  py.unpackArchive(app, "zip", { extractDir: "/app" });
  py.runPython("import sys\nif '/app' not in sys.path: sys.path.insert(0, '/app')");
}

const py = await loadPyodide({ indexURL: runtime, _makeSnapshot: true });
start(py);
const loaded = py._module._sbrk(0);
let begun = performance.now();
py.runPython("from calculator.offline.start import started\nphone = started('/app')");
const warmMs = performance.now() - begun;
const top = py._module._sbrk(0);
const memory = py._module.HEAP8.length;
console.log(`heap top before the warm-up ${mib(loaded)}, after it ${mib(top)} (warm-up ${warmMs.toFixed(0)} ms)`);
console.log(`WebAssembly memory ${mib(memory)}`);
console.log(`${verdict(top <= GOAL)} heap top ${mib(top)} ≤ ${mib(GOAL)}`);
if (top > GOAL) process.exitCode = 1;
const snapshot = py.makeMemorySnapshot();
console.log(`snapshot ${snapshot.length.toLocaleString("en")} B`);
try {
  begun = performance.now();
  const again = await loadPyodide({ indexURL: runtime, _loadSnapshot: snapshot });
  start(again);
  again.globals.get("phone").warm();
  console.log(`PASS restored (${(performance.now() - begun).toFixed(0)} ms with the second start's warm-up)`);
} catch (error) {
  console.log(`FAIL not restored (${error})`);
  process.exitCode = 1;
}
