// For the picture's browser test (issue 32): a phone whose share sheet takes files. navigator.canShare says yes
// to files and navigator.share keeps what it was given in window.__shared (each file's name, type, size and, for
// a PNG, the width and height its header says), then marks <html data-shared="<how many>">. Installed before
// the page's own scripts (a file: no eval).
(() => {
  window.__shared = [];
  async function pngSize(file) {
    const header = new DataView(await file.slice(16, 24).arrayBuffer());
    return [header.getUint32(0), header.getUint32(4)];
  }
  Object.defineProperty(navigator, "canShare", {
    configurable: true,
    value: (data) => !!(data && data.files && data.files.length),
  });
  Object.defineProperty(navigator, "share", {
    configurable: true,
    value: async (data) => {
      for (const file of data.files) {
        const [width, height] = await pngSize(file);
        window.__shared.push({ name: file.name, type: file.type, size: file.size, width, height, title: data.title });
      }
      document.documentElement.dataset.shared = String(window.__shared.length);
    },
  });
})();
